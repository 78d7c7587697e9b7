/**
 * Follows a lifecycle operation (a job on the platform) to its end, with a progress bar on a terminal
 * and one line per step elsewhere, by polling GET /rings/operations/{id}. A failed operation becomes
 * a CliError carrying its reasons and, for failed promotions, what was moved back.
 */
import { CliError, EXIT, explain, type ApiClient } from './api-client';
import { detail, progress } from './output';

export interface Operation {
  id: string;
  kind: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: { done: number; total: number; message: string; percent: number };
  result: Record<string, unknown> | null;
  error: { code: string; message: string; status: number; details?: Record<string, unknown> } | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function followOperation(client: ApiClient, queued: Operation, title: string, pollMs = 250): Promise<Operation> {
  const bar = progress(title);
  let op = queued;
  let lastMessage = '';
  const tty = process.stderr.isTTY;
  for (;;) {
    const { done, total, message } = op.progress;
    if (total > 0) bar.update(done, total, message);
    // Without a terminal (CI logs), each step is a line of its own instead of a bar.
    if (!tty && message && message !== lastMessage && message !== 'queued' && message !== 'started') detail(message);
    lastMessage = message;
    if (op.status === 'completed' || op.status === 'failed') break;
    await sleep(pollMs);
    op = (await client.request<{ operation: Operation }>('GET', `/rings/operations/${op.id}`)).operation;
  }
  bar.stop();
  if (op.status === 'failed') {
    const error = op.error!;
    const lines = explain({ details: error.details as never });
    const undone = (error.details?.undone as Array<{ tenantId: string; from: string; to: string }> | undefined) ?? [];
    for (const u of undone) lines.push(`moved back: tenant ${u.tenantId} (${u.to} → ${u.from})`);
    lines.push(`operation ${op.id}`);
    throw new CliError(`${error.message} (${error.code})`, error.status === 401 || error.status === 403 ? EXIT.auth : EXIT.refused, lines);
  }
  return op;
}
