// Keeps the platform running (`./run start` uses it):  node scripts/supervise.mjs <command> [args...]
//
// Starts the command and starts it again when it ends with a non-zero code or a signal: a node whose
// module isolate was lost beyond recovery drains and ends itself, and must come back (sandbox/README.md).
// Waits 1 s before the first restart, doubling up to 30 s, back to 1 s after a minute up. Five failures
// in a row, each within 10 s of starting, are a start that cannot succeed (port taken, bad
// configuration): it gives up with the command's code. SIGINT and SIGTERM are passed on, and it then
// exits as the command did. Exit 0 of the command (a requested stop) ends it too.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
const STABLE_MS = 60_000;
const QUICK_MS = 10_000;
const QUICK_FAILURES = 5;

const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node scripts/supervise.mjs <command> [args...]\n');
  process.exit(2);
}

const say = (line) => process.stderr.write(`[supervise] ${line}\n`);
const codeOf = (code, signal) => code ?? 128 + (constants.signals[signal] ?? 0);

let child;
let stopping = false;
let restartTimer;
let delayMs = FIRST_DELAY_MS;
let quickFailures = 0;

function start() {
  const began = Date.now();
  child = spawn(command, args, { stdio: 'inherit' });
  say(`started pid ${child.pid}: ${[command, ...args].join(' ')}`);
  child.on('error', (err) => {
    say(`cannot start ${command}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    child = undefined;
    if (stopping || code === 0) process.exit(codeOf(code, signal));
    const upMs = Date.now() - began;
    if (upMs >= STABLE_MS) delayMs = FIRST_DELAY_MS;
    quickFailures = upMs < QUICK_MS ? quickFailures + 1 : 0;
    const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
    if (quickFailures >= QUICK_FAILURES) {
      say(`the platform ${how}, the ${QUICK_FAILURES}th time in a row within ${QUICK_MS / 1000} s of starting; giving up`);
      process.exit(codeOf(code, signal));
    }
    say(`the platform ${how}; restarting in ${delayMs / 1000} s`);
    restartTimer = setTimeout(start, delayMs);
    delayMs = Math.min(delayMs * 2, MAX_DELAY_MS);
  });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    if (child) child.kill(signal);
    else {
      clearTimeout(restartTimer);
      process.exit(0);
    }
  });
}

start();
