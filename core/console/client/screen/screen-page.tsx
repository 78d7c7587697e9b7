/**
 * The web route `/m/[...slug]` (spec 1, Client behaviour): the URL path is the screen id in path form
 * (`/m/orders/list` → `orders/list`), whose definition is asked fresh every time (no client cache).
 * A path that is no screen id is matched against the screens' registered routes (`/orders/:id` →
 * `orders.detail` with `id`), which is where a navigate action's `route` leads. When neither names a
 * screen, the console falls back to the module's own page: the tenant-uploaded module's public route
 * at `/api/<slug>` when it answers a page (response kind `page`: HTML served as a sandboxed document of
 * no origin, so neither framed nor opened in a tab can it read the session); otherwise the 404.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorBox, Modal } from '../dialogs';
import { Icon } from '../icons';
import { knownScreens, screenList } from '../screens';
import { runAction, type ActionHost } from './actions';
import { Sections } from './sections';
import { isObject, type Row } from './values';

interface Definition { id: string; title: string; header?: Row; sections: unknown }

type Resolved = { kind: 'screen'; definition: Definition; params: Record<string, string> } | { kind: 'page'; url: string } | { kind: 'error'; error: unknown };

/** A module page answers HTML under its own sandbox policy; anything else under /api is no page. */
async function modulePage(slug: string): Promise<string | undefined> {
  const url = `/api/${slug}`;
  const res = await fetch(url, { method: 'GET', headers: { Accept: 'text/html' } });
  const csp = res.headers.get('content-security-policy') ?? '';
  const isPage = res.ok && (res.headers.get('content-type') ?? '').startsWith('text/html') && /^sandbox allow-scripts;/.test(csp) && !res.headers.has('content-disposition');
  return isPage ? url : undefined;
}

/** `/orders/:id` against `/orders/42` → {id: '42'}; undefined when it does not match. */
export function matchRoute(pattern: string, path: string): Record<string, string> | undefined {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return undefined;
  }
  return params;
}

const pathForm = (slug: string) => `/mobile/screens/${slug.split('/').map(encodeURIComponent).join('/')}`;

async function resolve(slug: string, query: Record<string, string>): Promise<Resolved> {
  try {
    let data = knownScreens();
    if (!data) {
      // First screen of the session: as spec 1 says, the path form asked at once (alongside the
      // screens list, which the navigation needs anyway); only a miss waits for the list's routes.
      const list = screenList();
      try {
        return { kind: 'screen', definition: await api<Definition>(pathForm(slug)), params: query };
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) return { kind: 'error', error: err };
      }
      data = await list;
    }
    // The registered screens (ids and routes), so a route path is never asked as an id.
    const id = slug.split('/').join('.');
    const direct = data.find((s) => s.id === id);
    const routed = direct ? undefined : data.map((entry) => ({ entry, params: entry.route ? matchRoute(entry.route, slug) : undefined })).find((m) => m.params);
    const target = direct ?? routed?.entry;
    if (target) {
      // The definition itself is always asked fresh (spec 1: the web client does not cache definitions).
      const definition = await api<Definition>(direct ? pathForm(slug) : `/mobile/screens/${encodeURIComponent(target.id)}`);
      return { kind: 'screen', definition, params: { ...query, ...(routed?.params ?? {}) } };
    }
    const page = await modulePage(slug);
    if (page) return { kind: 'page', url: page };
    return { kind: 'error', error: new ApiError(404, `No screen or module page at /m/${slug}.`, 'SCREEN_NOT_FOUND') };
  } catch (err) {
    return { kind: 'error', error: err };
  }
}

export function ScreenPage({ slug, query }: { slug: string; query: Record<string, string> }) {
  const [resolved, setResolved] = useState<Resolved | null>(null);
  const [tick, setTick] = useState(0);
  const key = `${slug}?${JSON.stringify(query)}`;
  useEffect(() => {
    let live = true;
    setResolved(null);
    resolve(slug, query).then((r) => live && setResolved(r));
    return () => void (live = false);
  }, [key]);
  useEffect(() => {
    if (resolved?.kind === 'screen') document.title = `${resolved.definition.title} · Mandi`;
  }, [resolved]);

  if (!resolved) return <p class="muted" aria-busy="true">Loading screen…</p>;
  if (resolved.kind === 'error') return <ErrorBox error={resolved.error} title="This screen could not be opened" />;
  if (resolved.kind === 'page') return <iframe class="module-page" title={`Module page ${slug}`} src={resolved.url} sandbox="allow-scripts" />;
  // A refresh asks the definition again (fresh, spec 1) and reloads every section.
  return <ScreenView definition={resolved.definition} params={resolved.params} tick={tick} onRefresh={() => resolve(slug, query).then((r) => { setResolved(r); setTick((t) => t + 1); })} />;
}

export function ScreenView({ definition, params, tick, onRefresh }: { definition: Definition; params: Record<string, string>; tick: number; onRefresh: () => void }) {
  const [overlay, setOverlay] = useState<{ id: string; as: 'modal' | 'sheet'; row: Row } | null>(null);
  const host: ActionHost = {
    refresh: () => onRefresh(),
    open: (id, as, row) => setOverlay({ id, as, row }),
  };
  const header = isObject(definition.header) ? definition.header : {};
  const actions = Array.isArray(header.actions) ? (header.actions as Row[]).filter(isObject) : [];
  const row: Row = { ...params };
  return (
    <article class="screen" data-screen={definition.id}>
      <header class="screen-head">
        {header.show_back ? <button type="button" class="ghost" aria-label="Back" onClick={() => history.back()}><Icon name="arrow-left" /></button> : null}
        <div>
          <h1>{String(header.title ?? definition.title)}</h1>
          {header.subtitle ? <p class="muted">{String(header.subtitle)}</p> : null}
        </div>
        <div class="screen-actions">
          {actions.map((a, i) => (
            <button key={String(a.id ?? i)} type="button" class="secondary" data-action={String(a.id ?? '')} onClick={() => runAction(a.action, row, host)}>
              {a.icon ? <Icon name={String(a.icon)} /> : null} {String(a.label ?? a.id)}
            </button>
          ))}
        </div>
      </header>
      <Sections screenId={definition.id} sections={definition.sections} params={params} host={host} tick={tick} />
      {overlay && <Overlay {...overlay} onClose={() => setOverlay(null)} />}
    </article>
  );
}

/** open-modal / open-sheet: another screen's definition over this one, its params from the row. */
function Overlay({ id, as, row, onClose }: { id: string; as: 'modal' | 'sheet'; row: Row; onClose: () => void }) {
  const [def, setDef] = useState<Definition | null>(null);
  const [error, setError] = useState<unknown>();
  const [tick, setTick] = useState(0);
  const params = Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null && typeof v !== 'object').map(([k, v]) => [k, String(v)]));
  useEffect(() => {
    api<Definition>(`/mobile/screens/${encodeURIComponent(id)}`).then(setDef, setError);
  }, [id, tick]);
  return (
    <Modal title={def?.title ?? 'Loading…'} onClose={onClose} sheet={as === 'sheet'}>
      {error ? <ErrorBox error={error} /> : def ? <ScreenView definition={def} params={params} tick={tick} onRefresh={() => setTick((t) => t + 1)} /> : <p class="muted">Loading…</p>}
    </Modal>
  );
}
