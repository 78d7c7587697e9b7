/**
 * `npm run bench [-- <name>...] [--json out.json] [--duration s] [--warmup s] [--connections n]
 * [--pipelining n] [--rounds n] [--profile]`
 *
 * Runs every bench/*.bench.ts (or the named ones: `http` for http.bench.ts) one after another in this
 * process, prints a table per benchmark and, with --json, writes every result with the machine it
 * ran on. Exits 1 when a benchmark fails to run; a missed target is reported but is not a failure.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { BenchContext, BenchOptions, BenchReport, Benchmark, Cell, Row } from './benchmark';

const SUFFIX = '.bench.ts';

const USAGE = `usage: npm run bench -- [name...] [--json out.json] [--duration 10] [--warmup 3]
                      [--connections 50] [--pipelining 1] [--rounds 1] [--profile] [--list]`;

interface Outcome {
  name: string;
  file: string;
  description?: string;
  ok: boolean;
  seconds: number;
  /** 1-minute load average before and after: how busy the machine was (it is shared and noisy). */
  loadBefore: number;
  loadAfter: number;
  error?: string;
  report?: BenchReport;
}

function positiveNumber(raw: string | undefined, flag: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} must be a positive number, got "${raw}"`);
  return n;
}

function available(): Map<string, string> {
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith(SUFFIX)).sort();
  return new Map(files.map((f) => [f.slice(0, -SUFFIX.length), path.join(__dirname, f)]));
}

/** Accepts `export default {...}` however the loader wraps it (ESM, or CJS with __esModule). */
async function load(file: string): Promise<Benchmark> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  let exp: unknown = mod.default ?? mod;
  if (exp && typeof exp === 'object' && 'default' in exp && !('run' in exp)) exp = (exp as { default: unknown }).default;
  if (!exp || typeof (exp as Benchmark).run !== 'function') throw new Error(`${path.basename(file)} must default-export { description, run(ctx) }`);
  return exp as Benchmark;
}

function formatCell(v: Cell): string {
  if (v === null) return '–';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return String(v);
    if (Number.isInteger(v)) return v.toLocaleString('en-US');
    return Math.abs(v) >= 100 ? Math.round(v).toLocaleString('en-US') : v.toFixed(2);
  }
  return String(v);
}

function formatTable(rows: Row[]): string {
  if (!rows.length) return '(no rows)';
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cells = rows.map((r) => columns.map((c) => formatCell(r[c] ?? null)));
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i].length)));
  // Text left, numbers right: the usual way to read a column of figures.
  const numeric = columns.map((c) => rows.every((r) => r[c] === undefined || r[c] === null || typeof r[c] === 'number'));
  const line = (values: string[]) => '| ' + values.map((v, i) => (numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, i) => (numeric[i] ? '-'.repeat(w + 1) + ':' : '-'.repeat(w + 2))).join('|') + '|';
  return [line(columns), rule, ...cells.map(line)].join('\n');
}

function printReport(name: string, report: BenchReport): void {
  const out = [`\n## ${name}: ${report.title}\n`, formatTable(report.rows)];
  for (const c of report.checks ?? []) out.push(`${c.ok ? 'PASS' : 'MISS'}  ${c.name}: ${c.detail}`);
  if (report.notes?.length) out.push('', ...report.notes.map((n) => `- ${n}`));
  process.stdout.write(out.join('\n') + '\n');
}

function machine() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryMB: Math.round(os.totalmem() / 1024 / 1024),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      json: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      pipelining: { type: 'string' },
      rounds: { type: 'string' },
      profile: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return;
  }
  const all = available();
  if (values.list) {
    process.stdout.write([...all.keys()].join('\n') + '\n');
    return;
  }
  const unknown = positionals.filter((p) => !all.has(p.replace(/\.bench(\.ts)?$/, '')));
  if (unknown.length) throw new Error(`unknown benchmark ${unknown.join(', ')}; available: ${[...all.keys()].join(', ')}`);
  const selected = positionals.length ? [...new Set(positionals.map((p) => p.replace(/\.bench(\.ts)?$/, '')))] : [...all.keys()];

  const options: BenchOptions = {
    durationSeconds: positiveNumber(values.duration, 'duration', 10),
    warmupSeconds: positiveNumber(values.warmup, 'warmup', 3),
    connections: Math.round(positiveNumber(values.connections, 'connections', 50)),
    pipelining: Math.round(positiveNumber(values.pipelining, 'pipelining', 1)),
    rounds: Math.round(positiveNumber(values.rounds, 'rounds', 1)),
    profile: values.profile,
  };
  const startedAt = new Date().toISOString();
  const m = machine();
  process.stdout.write(`# ${m.cpus} × ${m.cpuModel}, ${m.memoryMB} MB, ${m.os}, Node ${m.node}\n`);
  const outcomes: Outcome[] = [];
  for (const name of selected) {
    const file = all.get(name)!;
    const ctx: BenchContext = { options, log: (m) => process.stderr.write(`[${name}] ${m}\n`) };
    const t0 = performance.now();
    const outcome: Outcome = { name, file: path.relative(process.cwd(), file), ok: false, seconds: 0, loadBefore: os.loadavg()[0], loadAfter: 0 };
    try {
      const bench = await load(file);
      outcome.description = bench.description;
      outcome.report = await bench.run(ctx);
      outcome.ok = true;
      printReport(name, outcome.report);
    } catch (err) {
      outcome.error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      process.stderr.write(`[${name}] FAILED: ${outcome.error}\n`);
    }
    outcome.seconds = Number(((performance.now() - t0) / 1000).toFixed(1));
    outcome.loadAfter = os.loadavg()[0];
    process.stdout.write(`(${name}: ${outcome.seconds} s; load average ${outcome.loadBefore.toFixed(1)} before, ${outcome.loadAfter.toFixed(1)} after)\n`);
    outcomes.push(outcome);
  }

  if (values.json) {
    const doc = {
      startedAt,
      finishedAt: new Date().toISOString(),
      command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
      machine: m,
      options,
      benchmarks: outcomes,
    };
    fs.mkdirSync(path.dirname(path.resolve(values.json)), { recursive: true });
    fs.writeFileSync(values.json, JSON.stringify(doc, null, 2) + '\n');
    process.stderr.write(`results written to ${values.json}\n`);
  }
  if (outcomes.some((o) => !o.ok)) process.exitCode = 1;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(2);
});
