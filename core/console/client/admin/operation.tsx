/**
 * Following a lifecycle operation (rings/operations.ts): its `.module.operation` events on the
 * user's socket carry status and progress {done, total, message, percent}; the operation is also
 * read once by id, so a finish that happened before the socket heard of it is not missed. A finished
 * operation drops the screens list the navigation shows (screens.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { currentSession } from '../session';
import { socketFor } from '../realtime';
import { forgetScreens } from '../screens';

export interface Operation {
  id: string;
  kind?: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | string;
  module?: string;
  version?: string;
  progress?: { done?: number; total?: number; message?: string; percent?: number } | null;
  result?: Record<string, unknown> | null;
  error?: { code: string; message: string; details?: { reasons?: unknown[] } } | null;
}

export const finished = (op: Operation) => op.status === 'completed' || op.status === 'failed';

/** Live state of an operation until it finishes; `path` reads it by id (tenant or ring routes). */
export function useOperation(initial: Operation | null, path: (id: string) => string, onDone: (op: Operation) => void): Operation | null {
  const [op, setOp] = useState(initial);
  useEffect(() => {
    setOp(initial);
    if (!initial || finished(initial)) return;
    const session = currentSession();
    if (!session) return;
    const socket = socketFor(session);
    let done = false;
    const update = (next: Operation) => {
      if (done || next.id !== initial.id) return;
      setOp(next);
      if (finished(next)) {
        done = true;
        forgetScreens(); // an install, upgrade, rollback or ring change may add, drop or change screens
        onDone(next);
      }
    };
    const onEvent = (payload: Operation | { operation: Operation }) => update('operation' in payload ? payload.operation : payload);
    socket.on('.module.operation', onEvent);
    // One read now, then a slow poll as a safety net should the socket be down.
    const poll = () => api<{ operation: Operation }>(path(initial.id)).then((r) => update(r.operation), () => undefined);
    poll();
    const timer = setInterval(poll, 2_000);
    return () => {
      done = true;
      socket.off('.module.operation', onEvent);
      clearInterval(timer);
    };
  }, [initial?.id]);
  return op;
}

export function OperationProgress({ op }: { op: Operation }) {
  const pct = op.status === 'completed' ? 100 : Math.max(0, Math.min(100, op.progress?.percent ?? 0));
  return (
    <div class={`operation operation-${op.status}`} data-operation={op.id} data-status={op.status} role="status" aria-live="polite">
      <div class="op-line">
        <strong>{op.kind ?? 'operation'}{op.module ? ` ${op.module}` : ''}{op.version ? `@${op.version}` : ''}</strong>
        <span class={`badge badge-${op.status === 'completed' ? 'success' : op.status === 'failed' ? 'destructive' : 'warning'}`}>{op.status}</span>
      </div>
      <progress max={100} value={pct} aria-label="Progress">{pct}%</progress>
      {op.progress?.message ? <p class="muted">{op.progress.message}</p> : null}
      {op.error ? (
        <div class="input-error" role="alert">
          {op.error.message}
          {Array.isArray(op.error.details?.reasons) ? <ul>{op.error.details!.reasons!.map((r, i) => <li key={i}>{typeof r === 'string' ? r : JSON.stringify(r)}</li>)}</ul> : null}
        </div>
      ) : null}
    </div>
  );
}
