/**
 * The guest scripts (sandbox/guest/, TypeScript checked against ES2022 alone by
 * sandbox/guest/tsconfig.json), each bundled by esbuild into one script, once per process, when
 * first needed: the prelude, which evaluates to the guest's `boot` (protocol.ts, `Boot`), and the
 * evaluator, which evaluates to `evaluate` (protocol.ts, `Evaluate`) in a context host.evaluate makes.
 *
 * Built at start rather than by `npm run build`: the platform runs its TypeScript sources (`npm
 * start` is tsx), so there is no build step to hang it on, and a bundle made from the sources in
 * place cannot go stale. It costs one esbuild run per script and process (see sandbox/README.md).
 */
import path from 'node:path';
import { buildSync } from 'esbuild';

export const PRELUDE_FILENAME = 'mandi://sandbox/prelude.js';
export const EVALUATOR_FILENAME = 'mandi://sandbox/evaluator.js';

/** The bundle's name for the guest's exports, local to the wrapper function below. */
const EXPORTS = '__mandi_guest';

let prelude: string | undefined;
let evaluator: string | undefined;

/** The prelude script's text, bundled on first use. */
export function preludeSource(): string {
  prelude ??= bundleGuest('boot.ts', 'boot');
  return prelude;
}

/** The evaluator script's text, bundled on first use (the first host.evaluate). */
export function evaluatorSource(): string {
  evaluator ??= bundleGuest('evaluate.ts', 'evaluate');
  return evaluator;
}

function bundleGuest(entry: string, exported: string): string {
  const result = buildSync({
    entryPoints: [path.join(__dirname, 'guest', entry)],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: EXPORTS,
    platform: 'neutral',
    // Native classes, private fields and async functions: lowered ones would call helpers that look
    // methods up on shared prototypes (WeakMap.prototype.get, Promise.prototype.then), which guest
    // code can rewrite.
    target: 'es2022',
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const bundle = result.outputFiles[0].text;
  // A function, so the bundle's `var` stays out of the context's globals, and strict throughout, so
  // guest code cannot reach the script's frames through `fn.caller`; its value is the export.
  return `(function () {\n'use strict';\n${bundle}return ${EXPORTS}.${exported};\n})()`;
}
