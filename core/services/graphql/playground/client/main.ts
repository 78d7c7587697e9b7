/**
 * The playground's browser side: GraphiQL (a maintained distribution, bundled by ../assets.ts and
 * served from the platform, so the page's CSP can stay `script-src 'self'`) with a bar for the bearer
 * token. Every request carries `X-Tenant` (the tenant the page was served for) and the token, plus
 * whatever the user puts in GraphiQL's headers editor. The schema is the gateway's: introspection,
 * or GET /graphql/schema when the tenant has introspection off (spec 1, GraphQL rule 9).
 */
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import { buildClientSchema, buildSchema, getIntrospectionQuery, type GraphQLSchema, type IntrospectionQuery } from 'graphql';
import { createElement as h, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import 'graphiql/style.css';
import './page.css';

/** Monaco's workers, bundled beside this script (../assets.ts); `import.meta.url` is this script's URL. */
const WORKERS: Record<string, string> = { json: 'json.worker.js', graphql: 'graphql.worker.js' };
(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker: (_id: string, label: string) => new Worker(new URL(WORKERS[label] ?? 'editor.worker.js', import.meta.url)),
};

/** What the page tells the script (page.ts writes these as data attributes on #playground). */
interface PageInfo { endpoint: string; schemaUrl: string; tenant: string; tenantName: string; ring: string; fingerprint: string }

type Fetcher = GraphiQLProps['fetcher'];

const TOKEN_KEY = 'mandi.token';
const DEFAULT_QUERY = '{\n  _gateway {\n    ring\n    fingerprint\n    modules\n  }\n}\n';

function requestHeaders(info: PageInfo, token: string, extra?: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = { 'X-Tenant': info.tenant, Accept: 'application/graphql-response+json, application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  for (const [k, v] of Object.entries(extra ?? {})) if (typeof v === 'string') headers[k] = v;
  return headers;
}

function makeFetcher(info: PageInfo, token: string): Fetcher {
  return async (params, opts) => {
    const res = await fetch(info.endpoint, {
      method: 'POST',
      headers: { ...requestHeaders(info, token, opts?.headers), 'Content-Type': 'application/json' },
      body: JSON.stringify(params),
    });
    return res.json();
  };
}

/** The gateway's schema: introspection, else the SDL route; null when neither is allowed. */
async function loadSchema(info: PageInfo, token: string, fetcher: Fetcher): Promise<GraphQLSchema | null> {
  const result = (await fetcher({ query: getIntrospectionQuery(), operationName: 'IntrospectionQuery' })) as { data?: IntrospectionQuery };
  if (result.data?.__schema) return buildClientSchema(result.data);
  const sdl = await fetch(info.schemaUrl, { headers: requestHeaders(info, token) });
  return sdl.ok ? buildSchema(await sdl.text()) : null;
}

function Playground({ info }: { info: PageInfo }) {
  const [token, setToken] = useState(() => sessionStorage.getItem(TOKEN_KEY) ?? '');
  const [schema, setSchema] = useState<GraphQLSchema | null | undefined>(undefined);
  const fetcher = useMemo(() => makeFetcher(info, token), [info, token]);
  useEffect(() => {
    let current = true;
    loadSchema(info, token, fetcher).then((s) => current && setSchema(s), () => current && setSchema(null));
    return () => { current = false; };
  }, [info, token, fetcher]);

  const bar = h('header', { className: 'mandi-bar' },
    h('strong', null, 'GraphQL playground'),
    h('span', null, `tenant ${info.tenantName} · ring ${info.ring} · schema ${info.fingerprint}`),
    h('input', {
      id: 'mandi-token', type: 'password', placeholder: 'Bearer token', autoComplete: 'off', defaultValue: token,
      onChange: (e: { target: HTMLInputElement }) => {
        const next = e.target.value.trim();
        sessionStorage.setItem(TOKEN_KEY, next);
        setToken(next);
      },
    }),
  );
  return h('div', { className: 'mandi-playground' }, bar, h('div', { className: 'mandi-graphiql' }, h(GraphiQL, { fetcher, schema, defaultQuery: DEFAULT_QUERY })));
}

const root = document.getElementById('playground')!;
createRoot(root).render(h(Playground, { info: { ...root.dataset } as unknown as PageInfo }));
