/**
 * The console's dialogs: confirmations (spec 1: any action may carry `confirm` {title, message}),
 * screens opened as a modal or sheet, and toasts for results and errors. Native <dialog> with
 * showModal(): focus is trapped, Escape cancels, and the page behind is inert for assistive tech.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

interface ConfirmRequest { title: string; message: string; resolve: (ok: boolean) => void }
interface Toast { id: number; kind: 'ok' | 'error'; text: string; detail?: string[] }

let showConfirm: ((r: ConfirmRequest) => void) | undefined;
let pushToast: ((t: Omit<Toast, 'id'>) => void) | undefined;

export function confirmDialog(title: string, message: string): Promise<boolean> {
  return new Promise((resolve) => (showConfirm ? showConfirm({ title, message, resolve }) : resolve(window.confirm(`${title}\n\n${message}`))));
}

export function toast(kind: Toast['kind'], text: string, detail?: string[]): void {
  pushToast?.({ kind, text, detail });
}

export function Modal({ title, onClose, children, sheet }: { title: string; onClose: () => void; children: ComponentChildren; sheet?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal();
    const close = () => onClose();
    d.addEventListener('close', close);
    return () => d.removeEventListener('close', close);
  }, []);
  return (
    <dialog ref={ref} class={sheet ? 'modal sheet' : 'modal'} aria-label={title}>
      <div class="modal-head">
        <h2>{title}</h2>
        <button type="button" class="ghost" aria-label="Close" onClick={() => ref.current?.close()}>✕</button>
      </div>
      <div class="modal-body">{children}</div>
    </dialog>
  );
}

export function DialogHost() {
  const [confirm, setConfirm] = useState<ConfirmRequest | null>(null);
  const [toasts, setToasts] = useState<Toast[]>([]);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    showConfirm = setConfirm;
    let next = 1;
    pushToast = (t) => {
      const id = next++;
      setToasts((all) => [...all, { ...t, id }]);
      setTimeout(() => setToasts((all) => all.filter((x) => x.id !== id)), t.kind === 'error' ? 12_000 : 6_000);
    };
  }, []);
  useEffect(() => {
    if (confirm && ref.current && !ref.current.open) ref.current.showModal();
  }, [confirm]);
  const answer = (ok: boolean) => {
    confirm?.resolve(ok);
    setConfirm(null);
    ref.current?.close();
  };
  return (
    <>
      {confirm && (
        <dialog ref={ref} class="modal confirm" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-message" onCancel={() => answer(false)}>
          <h2 id="confirm-title">{confirm.title}</h2>
          <p id="confirm-message">{confirm.message}</p>
          <div class="row-end">
            <button type="button" class="ghost" onClick={() => answer(false)}>Cancel</button>
            <button type="button" class="primary" data-confirm="ok" autofocus onClick={() => answer(true)}>Confirm</button>
          </div>
        </dialog>
      )}
      <div class="toasts" role="status" aria-live="polite">
        {toasts.map((t) => (
          <div key={t.id} class={`toast toast-${t.kind}`} role={t.kind === 'error' ? 'alert' : undefined}>
            <strong>{t.text}</strong>
            {t.detail?.length ? <ul>{t.detail.map((d) => <li key={d}>{d}</li>)}</ul> : null}
          </div>
        ))}
      </div>
    </>
  );
}

/** An API error, shown where it happened (never swallowed). */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const e = error as { message?: string; status?: number; code?: string; reasons?: string[] };
  return (
    <div class="banner banner-error" role="alert">
      <strong>{title ?? 'Something went wrong'}</strong>
      <p>{e?.message ?? String(error)}{e?.code ? <code class="code"> {e.code}</code> : null}{e?.status ? <span class="muted"> (HTTP {e.status})</span> : null}</p>
      {e?.reasons?.length ? <ul>{e.reasons.map((r) => <li key={r}>{r}</li>)}</ul> : null}
    </div>
  );
}
