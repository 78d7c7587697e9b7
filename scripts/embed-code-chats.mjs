// A newcomer's first chat on a started platform (scripts/production-start-check.sh, a CI step): the
// README's first steps from a terminal (README, First steps after `./run start`: the owner, `mandi
// platform seed`, the module installed), then live chat's (modules/live-chat/README.md, Embed code;
// spec 2, Live chat): a widget, its embed code without base_url pasted as given into a page served
// from another origin, opened in Chromium, where a visitor writes; exits 0 when the agent API lists
// the message, 1 otherwise. The screenshot goes to artifacts/production-embed-code.png whatever happens.
//   node scripts/embed-code-chats.mjs <platform url>
// Only the platform's public HTTP routes are used, and the CLI the README names (run from this
// checkout, as a publisher would against any platform).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { ARTIFACTS, ROOT, launchChromium } from './chromium.mjs';

const [url] = process.argv.slice(2);
if (!url) {
  process.stderr.write('usage: node scripts/embed-code-chats.mjs <platform url>\n');
  process.exit(2);
}
// Thrown, so the browser step's finally still takes the screenshot and closes what it opened.
const fail = (why) => { throw new Error(why); };
const say = (line) => process.stdout.write(`embed-code-chats: ${line}\n`);

async function call(method, route, { token, tenant, body } = {}) {
  const headers = { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...(tenant ? { 'x-tenant': tenant } : {}) };
  const res = await fetch(`${url}/api/v1${route}`, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json().catch(() => null) };
}
async function expectStatus(status, what, answer) {
  const res = await answer;
  if (res.status !== status) fail(`${what} answered ${res.status}, not ${status}: ${JSON.stringify(res.body)?.slice(0, 500)}`);
  return res.body;
}

async function main() {
  // README: the owner, exactly as its curl writes it; the token from the answer.
  const owner = await expectStatus(201, 'POST /install/owner', call('POST', '/install/owner', {
    body: { organization_name: 'Acme', organization_slug: 'acme', name: 'Ada', email: 'ada@example.com', password: 'change-me-now' },
  }));
  const as = { token: owner.token, tenant: 'acme' };
  await expectStatus(200, 'GET /auth/me', call('GET', '/auth/me', as));
  say(`owner of tenant ${owner.tenant.id} (acme) created`);

  // README: `./run npm run mandi -- platform seed` with MANDI_URL and MANDI_TOKEN (this script runs under ./run's Node).
  // Not execFileSync: a blocked event loop misses the platform closing this process's idle keep-alive
  // connection, and the next request would go out on it ("other side closed").
  await promisify(execFile)('npm', ['run', '-s', 'mandi', '--', 'platform', 'seed'], {
    cwd: ROOT, env: { ...process.env, MANDI_URL: url, MANDI_TOKEN: owner.token },
  }).catch((err) => fail(`mandi platform seed failed: ${err.stderr || err.message}`));
  say('first-party modules seeded');
  await expectStatus(201, 'POST /modules/live_chat/install', call('POST', '/modules/live_chat/install', as));
  say('live_chat installed');

  const widget = await expectStatus(201, 'POST /live-chat/widgets', call('POST', '/live-chat/widgets', { ...as, body: { name: 'Shop chat' } }));
  const embed = await expectStatus(200, 'GET /live-chat/widgets/{id}/embed-code', call('GET', `/live-chat/widgets/${widget.id}/embed-code`, as));
  // modules/live-chat/README.md, Embed code: APP_URL's scheme and port, the tenant's subdomain under ROOT_DOMAIN.
  const port = new URL(url).port;
  if (!embed.script_url.startsWith(`http://acme.localhost:${port}/api/widget/`)) fail(`the embed code names ${embed.script_url}, not http://acme.localhost:${port}/api/widget/…`);
  say(`embed code: ${embed.embed_code}`);

  const shop = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(`<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>\n${embed.embed_code}\n</body></html>`));
  await new Promise((r) => shop.listen(0, '127.0.0.1', r));
  const browser = await launchChromium();
  const page = await browser.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  const question = 'Do you ship to Lisbon?';
  try {
    await page.goto(`http://127.0.0.1:${shop.address().port}/`);
    const launcher = page.locator('[data-mandi-chat] >> button.launcher');
    await launcher.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => fail(`the widget did not appear on the page ${problems.join('; ')}`));
    await launcher.click();
    await page.locator('[data-mandi-chat] >> input[name=name]').fill('Dana');
    await page.locator('[data-mandi-chat] >> input[name=email]').fill('dana@example.com');
    await page.locator('[data-mandi-chat] >> form.pre button').click();
    const text = page.locator('[data-mandi-chat] >> input[name=message]');
    await text.waitFor({ state: 'visible', timeout: 15_000 });
    await text.fill(question);
    await text.press('Enter');

    const deadline = Date.now() + 30_000;
    let listed;
    for (;;) {
      listed = (await call('GET', `/live-chat/conversations?widget_id=${widget.id}&search=Lisbon`, as)).body?.data?.[0];
      if (listed) break;
      if (Date.now() > deadline) fail(`the agent API lists no conversation with the visitor's message ${problems.join('; ')}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const messages = await expectStatus(200, 'GET /live-chat/conversations/{id}/messages', call('GET', `/live-chat/conversations/${listed.id}/messages`, as));
    if (!messages.data.some((m) => m.content === question)) fail(`the conversation's messages hold no "${question}": ${JSON.stringify(messages.data)}`);
    await page.locator('[data-mandi-chat]').getByText(question).first().waitFor({ timeout: 15_000 });
    if (problems.length) fail(`the page had problems: ${problems.join('; ')}`);
    say(`a visitor's message from ${page.url()} reached the agent API (conversation ${listed.id})`);
  } finally {
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'production-embed-code.png') }).catch(() => {});
    await browser.close();
    shop.close();
  }
}

await main().catch((err) => {
  process.stderr.write(`embed-code-chats: ${err.message}${err.cause ? ` (${err.cause.message ?? err.cause})` : ''}\n`);
  process.exit(1);
});
