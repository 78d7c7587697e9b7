/**
 * autocannon in a child process, for benchmarks whose server runs in the benchmark's own process
 * (so they can read its in-process counters): the load generator then does not share the server's
 * event loop. The parent forks this file under tsx and sends one `LoadJob`; the child answers with
 * the autocannon result and exits. Paths rotate over `paths`, one per request, so concurrent
 * requests touch different rows (e.g. payments on different orders).
 */
import { fork } from 'node:child_process';
import autocannon from 'autocannon';

export interface LoadJob {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  paths: string[];
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  latencyMeanMs: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
}

function run(job: LoadJob): Promise<LoadResult> {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.durationSeconds,
        method: job.method,
        headers: job.headers,
        body: job.body,
        requests: [{ setupRequest: (req) => ({ ...req, path: job.paths[next++ % job.paths.length] }) }],
      },
      (err, r) => {
        if (err) return reject(err instanceof Error ? err : new Error(String(err)));
        resolve({
          requests: r.requests.total, requestsPerSecond: r.requests.total / r.duration, latencyMeanMs: r.latency.mean, latencyP50Ms: r.latency.p50,
          latencyP99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts,
        });
      },
    );
  });
}

/** Parent side: runs one job in a fresh child and returns its result. */
export function loadInChild(job: LoadJob): Promise<LoadResult> {
  const child = fork(__filename, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { result?: LoadResult; error?: string }) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
    child.once('exit', (code) => reject(new Error(`load generator exited with ${code} before answering`)));
    child.send(job);
  });
}

if (process.send && require.main === module) {
  process.once('message', (job: LoadJob) => {
    run(job).then(
      (result) => process.send!({ result }, () => process.exit(0)),
      (err: unknown) => process.send!({ error: err instanceof Error ? err.message : String(err) }, () => process.exit(1)),
    );
  });
}
