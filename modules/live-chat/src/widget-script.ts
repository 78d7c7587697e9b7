/**
 * The embeddable widget (spec 2: GET /api/widget/{token}/script.js, loaded with `<script src=… async>`):
 * plain JavaScript, no framework, a few KB. It renders into its own shadow root on a host element
 * whose layout is set inline (inline styles win over a page's `* { all: unset }`), so the page's CSS
 * cannot reach it and its CSS cannot reach the page. Every piece of text from the server or the
 * visitor is set with textContent, never as HTML. It talks to the public widget API (base URL: the
 * script's own origin, the embed code's base) and follows its conversation over socket.io with the
 * visitor grant (README, Following a conversation in realtime): the `grant` and `tenant` of the
 * answer to `POST …/conversations`, or of `POST …/session` for a returning visitor with an open
 * conversation, go in the handshake auth `{grant, tenant}`, then it emits `subscribe` with
 * `chat.conversation.{id}` and answers pings, through a small hand-written client of the socket.io
 * v4 protocol on a WebSocket: no 50 KB client library, and nothing leaked into the page's globals.
 * The session id is kept in localStorage per widget token. A `chat.typing` from the agent's side shows
 * "<name> is typing…" until they stop, their message arrives, or no refresh came for TYPING_MS
 * (README, Typing: clients send a start at most once a second while typing).
 * Once a conversation is open the visitor can attach a file (README, Attachments): a labelled button
 * opens the browser's own file input, the file goes as base64 to the visitor's attachment route,
 * "Sending …" shows until it is stored and the server's own message when it is refused (type, bytes,
 * size, count). Only PNG, JPEG, GIF and WebP are drawn as images (never SVG or HTML, which the server
 * refuses anyway). Comments about the script sit here, not in it: they would ship to every page.
 */
const SOURCE = String.raw`(function () {
  var TOKEN = __TOKEN__;
  var script = document.currentScript;
  if (!script || !window.fetch || !document.body || !document.body.attachShadow) return;
  var base = new URL(script.src).origin;
  var api = base + '/api/widget/' + TOKEN;
  var KEY = 'mandi_chat.' + TOKEN;
  var state = { session: null, conversation: null, seen: {}, ws: null, cfg: null };
  try { state.session = localStorage.getItem(KEY + '.session'); state.conversation = Number(localStorage.getItem(KEY + '.conversation')) || null; } catch (e) {}

  function call(method, path, body) {
    return fetch(api + path, { method: method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw j; return j; }); });
  }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text != null) e.textContent = text; return e; }
  function remember(k, v) { try { v == null ? localStorage.removeItem(KEY + '.' + k) : localStorage.setItem(KEY + '.' + k, String(v)); } catch (e) {} }

  call('GET', '/config').then(mount, function () {});

  function mount(cfg) {
    state.cfg = cfg;
    var pos = String(cfg.position || 'bottom-right').split('-');
    var host = document.createElement('div');
    host.setAttribute('data-mandi-chat', '');
    host.style.cssText = 'all:initial;display:block;position:fixed;z-index:2147483647;' + pos[0] + ':20px;' + pos[1] + ':20px;';
    var root = host.attachShadow({ mode: 'open' });
    var r = cfg.border_radius + 'px', size = cfg.launcher_size + 'px';
    var style = el('style');
    style.textContent = ':host{all:initial}*{box-sizing:border-box;font:14px/1.4 system-ui,sans-serif;margin:0}' +
      '.wrap{display:flex;flex-direction:' + (pos[0] === 'top' ? 'column-reverse' : 'column') + ';align-items:' + (pos[1] === 'left' ? 'flex-start' : 'flex-end') + '}' +
      '.launcher svg{width:50%;height:50%;fill:currentColor;display:block;margin:auto}' +
      '.launcher{width:' + size + ';height:' + size + ';border-radius:50%;border:0;cursor:pointer;background:' + cfg.primary_color + ';color:' + cfg.text_color + ';font-size:22px;display:block}' +
      '.panel{display:none;flex-direction:column;width:340px;height:460px;max-height:80vh;background:#fff;color:#111;border-radius:' + r + ';box-shadow:0 8px 30px rgba(0,0,0,.25);overflow:hidden}' +
      '.open .panel{display:flex;margin:' + (pos[0] === 'top' ? '12px 0 0' : '0 0 12px') + '}.head{background:' + cfg.primary_color + ';color:' + cfg.text_color + ';padding:14px}.head b{display:block;font-size:16px}' +
      '.log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:6px;background:#f6f6f6}' +
      '.m{max-width:80%;padding:8px 10px;border-radius:10px;white-space:pre-wrap;word-wrap:break-word;background:#fff;align-self:flex-start}' +
      '.m.visitor{align-self:flex-end;background:' + cfg.primary_color + ';color:' + cfg.text_color + '}.m.system{align-self:center;background:none;color:#666;font-size:12px}' +
      '.typing{display:none;padding:2px 12px 6px;color:#666;font-size:12px;font-style:italic;background:#f6f6f6}.typing.on{display:block}' +
      '.m .thumb{display:block;max-width:100%;max-height:160px;border-radius:6px;margin-bottom:4px}.m .file{color:inherit;text-decoration:underline;display:block}' +
      '.status{padding:2px 12px 6px;font-size:12px;background:#f6f6f6}.status:empty,.attach[hidden],.pick{display:none}.error{color:#b00020}' +
      '.attach{padding:0 8px;border:1px solid #ccc;border-radius:6px}' +
      '.note{padding:8px 12px;color:#555;background:#fff8e1}form{display:flex;gap:6px;padding:10px;border-top:1px solid #ddd;background:#fff}form.pre{flex-direction:column}' +
      'input,textarea{flex:1;padding:8px;border:1px solid #ccc;border-radius:6px;color:#111;background:#fff;display:block}' +
      'button.send{padding:8px 12px;border:0;border-radius:6px;cursor:pointer;background:' + cfg.primary_color + ';color:' + cfg.text_color + '}.brand{font-size:11px;color:#888;text-align:center;padding:4px}';
    var wrap = el('div', 'wrap'), panel = el('div', 'panel'), head = el('div', 'head');
    head.appendChild(el('b', null, cfg.welcome_title));
    head.appendChild(el('span', null, cfg.welcome_message));
    var log = el('div', 'log');
    panel.appendChild(head);
    if (!cfg.online && cfg.offline_message) panel.appendChild(el('div', 'note offline', cfg.offline_message));
    panel.appendChild(log);
    var typing = el('div', 'typing'); typing.setAttribute('aria-live', 'polite'); panel.appendChild(typing);
    var status = el('div', 'status'); status.setAttribute('role', 'status'); panel.appendChild(status);
    var pre = el('form', 'pre'), name = el('input'), email = el('input');
    name.name = 'name'; name.placeholder = 'Your name'; name.required = true; name.maxLength = 100;
    email.name = 'email'; email.type = 'email'; email.placeholder = 'Your email'; email.required = true; email.maxLength = 254;
    if (cfg.collect_name) pre.appendChild(name);
    if (cfg.collect_email) pre.appendChild(email);
    var start = el('button', 'send', 'Start chat'); start.type = 'submit'; pre.appendChild(start);
    var form = el('form', 'compose'), text = el('input');
    text.name = 'message'; text.placeholder = cfg.input_placeholder; text.maxLength = 5000; text.autocomplete = 'off';
    var send = el('button', 'send', 'Send'); send.type = 'submit';
    var pick = el('input', 'pick'); pick.type = 'file'; pick.accept = 'image/*,application/pdf,text/plain';
    var attach = el('button', 'attach', '+'); attach.type = 'button'; attach.title = 'Attach a file'; attach.setAttribute('aria-label', attach.title); attach.hidden = !state.conversation;
    attach.onclick = function () { pick.click(); };
    form.appendChild(attach); form.appendChild(pick); form.appendChild(text); form.appendChild(send);
    panel.appendChild(state.session || (!cfg.collect_name && !cfg.collect_email) ? form : pre);
    if (cfg.show_branding) panel.appendChild(el('div', 'brand', 'Powered by Mandi'));
    var launcher = el('button', 'launcher'); launcher.type = 'button'; launcher.setAttribute('aria-label', 'Chat');
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg'), bubble = document.createElementNS('http://www.w3.org/2000/svg', 'path');
    svg.setAttribute('viewBox', '0 0 24 24'); bubble.setAttribute('d', 'M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z');
    svg.appendChild(bubble); launcher.appendChild(svg);
    wrap.appendChild(panel); wrap.appendChild(launcher);
    root.appendChild(style); root.appendChild(wrap);
    document.body.appendChild(host);

    var typingTimer = null;
    function agentTyping(on, who) {
      clearTimeout(typingTimer);
      typing.textContent = on ? (who || 'Agent') + ' is typing\u2026' : '';
      typing.classList.toggle('on', on);
      if (on) typingTimer = setTimeout(function () { agentTyping(false); }, __TYPING_MS__);
    }
    // A file's bytes from the widget's own route, as a Blob of its checked type (README, Attachments):
    // served as a download, shown here from the Blob, so nothing is ever rendered from the platform.
    function fileOf(a) {
      return fetch(api + '/conversations/' + state.conversation + '/attachments/' + a.id + '?session_id=' + encodeURIComponent(state.session))
        .then(function (r) { if (!r.ok) throw r; return r.blob(); }).then(function (b) { return URL.createObjectURL(new Blob([b], { type: a.content_type })); });
    }
    function attachment(node, a) {
      var link = el('a', 'file', a.name + ' (' + Math.max(1, Math.round(a.size / 1024)) + ' KB)');
      link.href = '#';
      link.onclick = function (e) { e.preventDefault(); fileOf(a).then(function (u) { var d = el('a'); d.href = u; d.download = a.name; d.click(); }); };
      node.appendChild(link);
      if (/^image\/(png|jpeg|gif|webp)$/.test(a.content_type)) fileOf(a).then(function (u) { var img = el('img', 'thumb'); img.alt = a.name; img.src = u; node.insertBefore(img, link); }, function () {});
    }
    function show(m) {
      if (m.id != null) { if (state.seen[m.id]) return; state.seen[m.id] = 1; }
      if (m.sender_type === 'agent') agentTyping(false);
      var node = el('div', 'm ' + m.sender_type, m.attachment ? null : m.content);
      if (m.attachment) { if (m.content !== m.attachment.name) node.appendChild(el('div', null, m.content)); attachment(node, m.attachment); }
      log.appendChild(node);
      log.scrollTop = log.scrollHeight;
    }
    function session(extra) {
      var body = { current_page: location.href.slice(0, 2048) };
      if (state.session) body.session_id = state.session;
      for (var k in extra) body[k] = extra[k];
      return call('POST', '/session', body).then(function (s) { state.session = s.session_id; remember('session', s.session_id); return s; });
    }
    function follow(grant, tenant, id) {
      attach.hidden = false;
      if (state.ws) state.ws.close();
      var ws = new WebSocket(base.replace(/^http/, 'ws') + '/socket.io/?EIO=4&transport=websocket');
      state.ws = ws;
      ws.onmessage = function (e) {
        var d = String(e.data);
        if (d.charAt(0) === '0') ws.send('40' + JSON.stringify({ grant: grant, tenant: tenant }));
        else if (d === '2') ws.send('3');
        else if (d.slice(0, 2) === '40') ws.send('420' + JSON.stringify(['subscribe', 'chat.conversation.' + id]));
        else if (d.slice(0, 3) === '430') load(id); // subscribed: catch up on what was sent before
        else if (d.slice(0, 2) === '42') {
          var a = JSON.parse(d.slice(2));
          if (a[0] === 'chat.message.sent' && a[1] && a[1].message && a[1].conversation_id === id) show(a[1].message);
          if (a[0] === 'chat.typing' && a[1] && a[1].sender_type === 'agent' && a[1].conversation_id === id) agentTyping(a[1].typing === true, a[1].sender_name);
        }
      };
      ws.onclose = function () { if (state.ws === ws) setTimeout(resume, 3000); };
    }
    function load(id) {
      return call('GET', '/conversations/' + id + '/messages?session_id=' + encodeURIComponent(state.session)).then(function (res) { res.data.forEach(show); });
    }
    function resume() {
      if (!state.session) return;
      session({}).then(function (s) {
        if (s.conversation_id && s.grant) { state.conversation = s.conversation_id; follow(s.grant, s.tenant, s.conversation_id); }
      }, function () {});
    }
    pre.onsubmit = function (e) {
      e.preventDefault();
      var extra = {};
      if (cfg.collect_name) extra.name = name.value;
      if (cfg.collect_email) extra.email = email.value;
      session(extra).then(function () { panel.replaceChild(form, pre); text.focus(); }, function (err) { show({ sender_type: 'system', content: (err && err.message) || 'Could not start the chat.' }); });
    };
    form.onsubmit = function (e) {
      e.preventDefault();
      var content = text.value.trim();
      if (!content) return;
      text.value = '';
      var ready = state.session ? Promise.resolve() : session({});
      ready.then(function () {
        if (state.conversation) return call('POST', '/conversations/' + state.conversation + '/messages', { session_id: state.session, content: content }).then(function (r) { show(r.message); });
        return call('POST', '/conversations', { session_id: state.session, message: content }).then(function (r) {
          state.conversation = r.conversation.id; remember('conversation', r.conversation.id);
          show(r.message); follow(r.grant, r.tenant, r.conversation.id);
        });
      }).catch(function (err) {
        if (err && err.code === 'INVALID_STATE') { state.conversation = null; remember('conversation', null); }
        show({ sender_type: 'system', content: (err && err.message) || 'Not sent.' });
      });
    };
    function notice(t, error) { status.textContent = t; status.classList.toggle('error', !!error); }
    pick.onchange = function () {
      var file = pick.files && pick.files[0];
      pick.value = '';
      if (!file) return;
      notice('Sending ' + file.name + '\u2026');
      attach.disabled = true;
      new Promise(function (ok, fail) {
        var fr = new FileReader();
        fr.onload = function () { ok(String(fr.result).replace(/^[^,]*,/, '')); };
        fr.onerror = fail;
        fr.readAsDataURL(file);
      }).then(function (data) {
        return call('POST', '/conversations/' + state.conversation + '/attachments', { session_id: state.session, name: file.name, content_type: file.type || 'application/octet-stream', data: data });
      }).then(function (r) { notice(''); show(r.message); }, function (err) {
        notice(file.name + ': ' + ((err && err.message) || 'Not sent.'), true);
      }).then(function () { attach.disabled = false; attach.focus(); });
    };
    launcher.onclick = function () { wrap.classList.toggle('open'); if (wrap.classList.contains('open')) (state.session ? text : name).focus(); };
    resume();
  }
})();
`;

/** How long the agent's typing indicator stays without a refreshed start (a few seconds: README, Typing). */
export const TYPING_MS = 6000;

/**
 * The script as served: without its indentation and whole-line comments, which mean nothing to a
 * browser (no string in it spans lines, and none starts a line with //, so no text changes).
 */
const SERVED = SOURCE.replace(/^[ \t]+/gm, '').replace(/^\/\/.*\n/gm, '');

/** The script for one widget token (the token is the only thing that varies). */
export const widgetScript = (token: string) => SERVED.replace('__TOKEN__', JSON.stringify(token)).replace('__TYPING_MS__', String(TYPING_MS));
