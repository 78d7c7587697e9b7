/**
 * GET /graphql/playground: a GraphiQL-style page, self-contained (no CDN is reachable from every
 * deployment, and no GraphiQL build is installed): an operation editor, variables, a run button
 * (Ctrl/Cmd+Enter), the result, a field explorer filled by introspection (or by GET /graphql/schema
 * when introspection is off), and a switch to send the operation as a persisted-query hash.
 * The page calls POST /graphql with the tenant it was served for; the token is typed in once and
 * kept in sessionStorage (a page loaded through a header-adding proxy can leave it empty).
 */
import { randomBytes } from 'node:crypto';
import { escapeHtml } from '../escape-html';

export interface PlaygroundInfo {
  endpoint: string;
  schemaUrl: string;
  tenant: string;
  ring: string;
  fingerprint: string;
}

/** JSON safe to embed in a <script>: no "</script>" or "<!--" can appear in it. */
const embed = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

export function playgroundPage(info: PlaygroundInfo): { html: string; csp: string } {
  const nonce = randomBytes(16).toString('base64');
  const csp = `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphQL playground · ${escapeHtml(info.tenant)}</title>
<style nonce="${nonce}">
  :root { --bg:#0f172a; --panel:#111827; --line:#1f2937; --text:#e5e7eb; --muted:#9ca3af; --accent:#e535ab; }
  * { box-sizing: border-box; }
  body { margin:0; font:14px/1.4 system-ui, sans-serif; background:var(--bg); color:var(--text); height:100vh; display:flex; flex-direction:column; }
  header { display:flex; gap:12px; align-items:center; padding:8px 12px; border-bottom:1px solid var(--line); flex-wrap:wrap; }
  header h1 { font-size:15px; margin:0; color:var(--accent); }
  header .meta { color:var(--muted); font-size:12px; }
  header input[type=password] { width:260px; }
  main { flex:1; display:grid; grid-template-columns: 1fr 1fr 280px; min-height:0; }
  section { display:flex; flex-direction:column; min-height:0; border-right:1px solid var(--line); }
  label { font-size:11px; text-transform:uppercase; letter-spacing:.05em; color:var(--muted); padding:6px 10px 2px; }
  textarea, pre, input { background:var(--panel); color:var(--text); border:1px solid var(--line); border-radius:4px; font:13px/1.45 ui-monospace, Menlo, Consolas, monospace; }
  textarea { flex:1; margin:4px 10px; padding:8px; resize:none; tab-size:2; }
  #variables { flex:0 0 120px; }
  pre { flex:1; margin:4px 10px 10px; padding:8px; overflow:auto; white-space:pre-wrap; }
  input { padding:4px 6px; }
  button { background:var(--accent); color:white; border:0; border-radius:4px; padding:6px 14px; font-weight:600; cursor:pointer; }
  .row { display:flex; gap:8px; align-items:center; padding:4px 10px; }
  #docs { overflow:auto; padding:0 10px 10px; }
  #docs h2 { font-size:12px; color:var(--muted); margin:12px 0 4px; text-transform:uppercase; }
  #docs a { display:block; color:var(--text); text-decoration:none; padding:3px 0; font-family:ui-monospace, monospace; font-size:12px; cursor:pointer; }
  #docs a:hover { color:var(--accent); }
  #docs small { display:block; color:var(--muted); font-family:system-ui; margin:0 0 4px 8px; }
  #status { color:var(--muted); font-size:12px; }
</style>
</head>
<body>
<header>
  <h1>GraphQL playground</h1>
  <span class="meta">tenant <b>${escapeHtml(info.tenant)}</b> · ring <b>${escapeHtml(info.ring)}</b> · schema ${escapeHtml(info.fingerprint)}</span>
  <input id="token" type="password" placeholder="Bearer token" autocomplete="off">
  <label class="row"><input id="persisted" type="checkbox"> send as persisted hash</label>
</header>
<main>
  <section>
    <label for="query">Operation</label>
    <textarea id="query" spellcheck="false"></textarea>
    <label for="variables">Variables (JSON)</label>
    <textarea id="variables" spellcheck="false">{}</textarea>
    <div class="row"><button id="run" title="Ctrl/Cmd + Enter">Run ▶</button><input id="operationName" placeholder="operationName (optional)"><span id="status"></span></div>
  </section>
  <section>
    <label>Result</label>
    <pre id="result"></pre>
  </section>
  <section>
    <label>Fields</label>
    <div id="docs">loading…</div>
  </section>
</main>
<script nonce="${nonce}">
(function () {
  var cfg = ${embed(info)};
  var $ = function (id) { return document.getElementById(id); };
  var store = window.sessionStorage;
  $('token').value = store.getItem('mandi.token') || '';
  $('query').value = store.getItem('mandi.query') || '{\\n  _gateway {\\n    ring\\n    fingerprint\\n    modules\\n  }\\n}\\n';
  $('token').addEventListener('change', function () { store.setItem('mandi.token', $('token').value.trim()); loadDocs(); });

  function headers(json) {
    var h = { 'X-Tenant': cfg.tenant, 'Accept': 'application/graphql-response+json, application/json' };
    if (json) h['Content-Type'] = 'application/json';
    var t = $('token').value.trim();
    if (t) h['Authorization'] = 'Bearer ' + t;
    return h;
  }
  function sha256(text) {
    return crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)).then(function (buf) {
      return Array.from(new Uint8Array(buf)).map(function (b) { return b.toString(16).padStart(2, '0'); }).join('');
    });
  }
  function post(body) {
    return fetch(cfg.endpoint, { method: 'POST', headers: headers(true), body: JSON.stringify(body) })
      .then(function (r) { return r.text().then(function (t) { return { status: r.status, text: t }; }); });
  }
  function run() {
    var query = $('query').value, variables;
    store.setItem('mandi.query', query);
    try { variables = JSON.parse($('variables').value || '{}'); } catch (e) { $('result').textContent = 'Variables are not valid JSON: ' + e.message; return; }
    var body = { query: query, variables: variables };
    if ($('operationName').value.trim()) body.operationName = $('operationName').value.trim();
    var started = performance.now();
    $('status').textContent = 'running…';
    var send = $('persisted').checked
      ? sha256(query).then(function (hash) { delete body.query; body.extensions = { persistedQuery: { version: 1, sha256Hash: hash } }; return post(body); })
      : post(body);
    send.then(function (r) {
      var shown = r.text;
      try { shown = JSON.stringify(JSON.parse(r.text), null, 2); } catch (e) { /* not JSON: show as is */ }
      $('result').textContent = shown;
      $('status').textContent = 'HTTP ' + r.status + ' · ' + Math.round(performance.now() - started) + ' ms';
    }, function (e) { $('result').textContent = String(e); $('status').textContent = ''; });
  }
  $('run').addEventListener('click', run);
  document.addEventListener('keydown', function (e) { if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') { e.preventDefault(); run(); } });
  $('query').addEventListener('keydown', function (e) {
    if (e.key !== 'Tab') return;
    e.preventDefault();
    var t = e.target, s = t.selectionStart;
    t.value = t.value.slice(0, s) + '  ' + t.value.slice(t.selectionEnd);
    t.selectionStart = t.selectionEnd = s + 2;
  });

  function insert(kind, f) {
    var args = f.args && f.args.length ? '(' + f.args.map(function (a) { return a.name + ': '; }).join(', ') + ')' : '';
    $('query').value = (kind === 'Mutation' ? 'mutation ' : 'query ') + '{\\n  ' + f.name + args + '\\n}\\n';
  }
  function showFields(groups) {
    var docs = $('docs');
    docs.textContent = '';
    groups.forEach(function (g) {
      if (!g.fields.length) return;
      var h = document.createElement('h2'); h.textContent = g.kind; docs.appendChild(h);
      g.fields.forEach(function (f) {
        var a = document.createElement('a'); a.textContent = f.name; a.title = 'insert'; a.addEventListener('click', function () { insert(g.kind, f); });
        docs.appendChild(a);
        if (f.description) { var s = document.createElement('small'); s.textContent = f.description; docs.appendChild(s); }
      });
    });
  }
  function loadDocs() {
    var q = '{ __schema { queryType { fields { name description args { name } } } mutationType { fields { name description args { name } } } } }';
    post({ query: q }).then(function (r) {
      var body; try { body = JSON.parse(r.text); } catch (e) { body = {}; }
      var s = body.data && body.data.__schema;
      if (s) return showFields([{ kind: 'Query', fields: s.queryType.fields }, { kind: 'Mutation', fields: s.mutationType ? s.mutationType.fields : [] }]);
      // Introspection off: the schema text, when the user may read it.
      return fetch(cfg.schemaUrl, { headers: headers(false) }).then(function (res) { return res.text().then(function (t) {
        var pre = document.createElement('pre'); pre.textContent = res.ok ? t : ((body.errors && body.errors[0] && body.errors[0].message) || 'Schema unavailable.');
        $('docs').textContent = ''; $('docs').appendChild(pre);
      }); });
    }, function (e) { $('docs').textContent = String(e); });
  }
  loadDocs();
})();
</script>
</body>
</html>
`;
  return { html, csp };
}
