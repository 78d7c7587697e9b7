/**
 * `/p/<module>/<path>[/…]`: a module's console page (docs/decisions/console-pages.md). Its bundle is
 * read with the session (GET /console-pages/<module>/<path>/bundle) and handed to a frame of the
 * platform's page shell (/console/page-frame), sandboxed to no origin: it cannot read this tab's
 * sessionStorage, cookies or same-origin API. Its requests come here as messages, from that frame only;
 * page-rules.ts decides which reach the platform (the module's own routes and channels).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { PAGE_MESSAGE, REFUSED_CODE, type PageAnswer, type PageRequest } from '../../../../sdk/console/protocol';
import { api, API_PREFIX, apiBlob, ApiError } from '../api';
import { ErrorBox } from '../dialogs';
import type { Me } from '../me';
import { socketFor } from '../realtime';
import { navigate } from '../router';
import { currentSession } from '../session';
import { callRefusal, channelRefusal, pageHref, SUB_PATH, type ModulePageEntry } from './page-rules';

type WithoutTag<T> = T extends unknown ? Omit<T, 'mandi'> : never;
type Answer = WithoutTag<PageAnswer>;

export function ModulePage({ page, me, sub }: { page: ModulePageEntry; me: Me; sub: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [code, setCode] = useState<string>();
  const [error, setError] = useState<unknown>();
  // The frame starts once, at the sub-path the console opened; later moves are the page's own.
  const firstSub = useRef(sub);

  useEffect(() => {
    document.title = `${page.label} · Mandi`;
    apiBlob(`/console-pages/${encodeURIComponent(page.module)}/${encodeURIComponent(page.path)}/bundle`).then((b) => b.text()).then(setCode, setError);
  }, [page.module, page.path]);

  useEffect(() => {
    const win = () => frame.current?.contentWindow;
    const post = (msg: Answer) => win()?.postMessage({ mandi: PAGE_MESSAGE, ...msg }, '*');
    const socket = socketFor(currentSession()!);
    const joined = new Set<string>();
    const forward = (event: string, data: unknown, meta?: { channel?: string }) => {
      if (meta?.channel && joined.has(meta.channel)) post({ type: 'event', channel: meta.channel, event, data });
    };
    const rejoin = () => { for (const c of joined) socket.emit('subscribe', c); };
    socket.onAny(forward);
    socket.on('connect', rejoin);

    const onMessage = async (e: MessageEvent) => {
      // Only this page's frame is heard; its identity is the frame, never what a message claims.
      if (!win() || e.source !== win()) return;
      const msg = e.data as PageRequest;
      if (!msg || typeof msg !== 'object' || msg.mandi !== PAGE_MESSAGE) return;
      if (msg.type === 'api') {
        const refusal = callRefusal(page, msg.method, msg.path);
        if (refusal) return post({ type: 'answer', id: msg.id, status: 403, body: { message: refusal, code: REFUSED_CODE } });
        try {
          // Always under /api/v1, even for a path that itself starts so: a module may declare the route
          // `/api/v1/members`, which is its own at /api/v1/api/v1/members, never the platform's /members.
          const body = await api(`${API_PREFIX}${msg.path}`, { method: msg.method.toUpperCase(), body: msg.body ?? undefined });
          post({ type: 'answer', id: msg.id, status: 200, body });
        } catch (err) {
          const status = err instanceof ApiError ? err.status : 0;
          post({ type: 'answer', id: msg.id, status, body: err instanceof ApiError ? (err.body ?? { message: err.message }) : { message: String(err) } });
        }
      } else if (msg.type === 'subscribe') {
        const refusal = channelRefusal(page, msg.channel);
        if (refusal) return post({ type: 'subscribed', id: msg.id, ok: false, error: refusal });
        socket.emit('subscribe', msg.channel, (ack: { ok: boolean; error?: string }) => {
          if (ack?.ok) joined.add(msg.channel);
          post({ type: 'subscribed', id: msg.id, ok: ack?.ok === true, error: ack?.error });
        });
      } else if (msg.type === 'unsubscribe' && joined.delete(msg.channel)) {
        socket.emit('unsubscribe', msg.channel);
      } else if (msg.type === 'navigate' && typeof msg.sub === 'string' && SUB_PATH.test(msg.sub)) {
        navigate(`${pageHref(page)}${msg.sub}`);
      }
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      socket.offAny(forward);
      socket.off('connect', rejoin);
      for (const c of joined) socket.emit('unsubscribe', c);
    };
  }, [page]);

  if (error) return <ErrorBox error={error} title={`${page.label} could not be opened`} />;
  if (code === undefined) return <p class="muted" aria-busy="true">Loading {page.label}…</p>;
  const start = () => frame.current?.contentWindow?.postMessage({
    mandi: PAGE_MESSAGE,
    type: 'init',
    code,
    context: { module: page.module, path: page.path, sub: firstSub.current, tenant: { id: me.tenant.id, name: me.tenant.name }, user: { id: me.id, name: me.name } },
  } satisfies PageAnswer, '*');
  return <iframe ref={frame} class="module-page console-page" title={page.label} src="/console/page-frame" sandbox="allow-scripts" onLoad={start} data-module={page.module} />;
}
