/**
 * spec 2, Live chat: the embeddable widget in a real browser (Debian's Chromium, from
 * scripts/ensure-chromium.sh, driven by playwright-core). A static page on one local origin embeds
 * the widget with its embed code and styles everything with `* { all: unset }`; a visitor opens it,
 * gives name and email and writes; an agent's socket receives the message on the tenant channel and
 * answers; the answer shows in the widget without a reload. A page on an origin outside
 * allowed_domains gets no widget. The agent typing shows "<name> is typing…" in the widget, and an agent's image shows from its bytes. A screenshot of the open widget goes to artifacts/live-chat-widget.png.
 */
import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestHost } from '../../../sdk/testing';
import { findChromium, ROOT } from './chromium';
import { addAgent, closeSockets, createWidget, PNG, requestAs, setStatus, socketClient, startHost, tenantChannel, type Agent } from './support';

/** The page's getComputedStyle, as evaluated in the browser (the tests compile without the DOM library). */
type StyleOf = (el: unknown) => { backgroundColor: string; fontSize: string };
declare const getComputedStyle: StyleOf;

const found = findChromium();
if ('reason' in found) console.warn(`live chat browser test skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

let host: TestHost;
let browser: Browser | undefined;
let pages: http.Server;
let strangers: http.Server;
let pagePort: number;
let strangerPort: number;
let embed: string;
let agent: Agent;

/** A shop's page: hostile CSS for everything, and the widget's embed code before </body>. */
const shopPage = (embedCode: string) => `<!doctype html><html><head><title>Shop</title>
<style>* { all: unset } html, body { display: block; min-height: 100vh; background: #fafafa; } div { font-size: 40px !important; color: red !important; }</style>
</head><body><h1>Our shop</h1><p>Products…</p>${embedCode}</body></html>`;

beforeAll(async () => {
  if (!('path' in found)) return;
  host = await startHost();
  agent = await addAgent(host, { name: 'Priya' });
  const url = new URL(host.url);
  pages = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(embed)));
  await new Promise<void>((r) => pages.listen(0, '127.0.0.1', r));
  pagePort = (pages.address() as AddressInfo).port;
  // The shop's origin is 127.0.0.1:<pagePort>; the same page served on another port is another origin.
  strangers = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage(embed)));
  await new Promise<void>((r) => strangers.listen(0, '127.0.0.1', r));
  strangerPort = (strangers.address() as AddressInfo).port;
  const widget = await createWidget(host, { name: 'Shop', primary_color: '#0b6e4f', allowed_domains: [`http://127.0.0.1:${pagePort}`] });
  embed = (await host.request('GET', `/live-chat/widgets/${widget.id}/embed-code?base_url=${url.origin}`)).body.embed_code;
  browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
}, 180_000);
afterAll(async () => {
  closeSockets();
  await browser?.close();
  pages?.close();
  strangers?.close();
  await host?.close();
});

async function openPage(origin: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 1100, height: 760 } });
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${new URL(r.url()).pathname}`); });
  await page.goto(`${origin}/`);
  return { page, problems };
}

describe('spec 2 Live chat: the embedded widget in Chromium', () => {
  browserTest('a visitor chats with an agent from a page with `* { all: unset }`; the answer shows without reload', async () => {
    const tenant = await socketClient(host, { token: agent.token, tenant: host.tenantId });
    expect(await tenant.subscribe(tenantChannel(host))).toEqual({ ok: true });
    const { page, problems } = await openPage(`http://127.0.0.1:${pagePort}`);
    const launcher = page.locator('[data-mandi-chat] >> button.launcher');
    await launcher.waitFor({ state: 'visible', timeout: 15_000 });
    // The page's CSS did not reach it: the launcher keeps its size, colour and fixed position.
    const box = (await launcher.boundingBox())!;
    expect(Math.round(box.width)).toBe(60);
    expect(Math.round(box.height)).toBe(60);
    expect(box.x + box.width).toBeGreaterThan(1100 - 30);
    expect(box.y + box.height).toBeGreaterThan(760 - 30);
    expect(await launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(11, 110, 79)');

    await launcher.click();
    await page.locator('[data-mandi-chat] >> input[name=name]').fill('Vikram <b>V</b>');
    await page.locator('[data-mandi-chat] >> input[name=email]').fill('vikram@example.com');
    await page.locator('[data-mandi-chat] >> form.pre button').click();
    const text = page.locator('[data-mandi-chat] >> input[name=message]');
    await text.waitFor({ state: 'visible' });
    await text.fill('Hello, is <script>alert(1)</script> my order shipped?');
    await text.press('Enter');

    const received = await tenant.next('chat.message.sent', (p) => p.message.sender_type === 'visitor', 15_000);
    expect(received.payload.message).toMatchObject({ content: 'Hello, is <script>alert(1)</script> my order shipped?', sender_name: 'Vikram <b>V</b>' });
    const id = received.payload.conversation_id as number;
    const reply = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'Yes! It ships <i>today</i>.' });
    expect(reply.status).toBe(201);

    const answer = page.locator('[data-mandi-chat] >> .m.agent');
    await answer.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await answer.textContent()).toBe('Yes! It ships <i>today</i>.');
    // Markup from either side is text: no element was made from it.
    expect(await page.locator('[data-mandi-chat] >> .log i, [data-mandi-chat] >> .log script').count()).toBe(0);
    expect(await page.locator('[data-mandi-chat] >> .m.visitor').textContent()).toBe('Hello, is <script>alert(1)</script> my order shipped?');
    // The page's `div { font-size: 40px !important }` does not reach into the widget's shadow root.
    expect(await answer.evaluate((el) => getComputedStyle(el).fontSize)).toBe('14px');

    // README Typing: the agent's chat.typing on the visitor's channel shows, and goes when they stop.
    const typing = page.locator('[data-mandi-chat] >> .typing');
    expect(await typing.isVisible()).toBe(false);
    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/typing`, { typing: true })).body).toEqual({ sent: true });
    await typing.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await typing.textContent()).toBe('Priya is typing\u2026');

    mkdirSync(path.join(ROOT, 'artifacts'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'artifacts', 'live-chat-widget.png') });
    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/typing`, { typing: false })).body).toEqual({ sent: true });
    await typing.waitFor({ state: 'hidden', timeout: 10_000 });

    // README Attachments: the agent's image shows from its bytes, with a link to download it.
    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/attachments`, { name: 'label.png', content_type: 'image/png', data: PNG })).status).toBe(201);
    const thumb = page.locator('[data-mandi-chat] >> .m.agent img.thumb');
    await thumb.waitFor({ state: 'attached', timeout: 10_000 });
    expect(await thumb.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(1);
    expect(await page.locator('[data-mandi-chat] >> .m.agent a.file').textContent()).toBe('label.png (1 KB)');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  browserTest('a page on an origin outside allowed_domains gets no widget', async () => {
    const page = await browser!.newPage();
    // The browser asks for the script with the stranger page as Referer; the answer is a 403 JSON
    // error, which Chromium does not run as a script (it may even drop it unread: opaque-response blocking).
    const asked: string[] = [];
    page.on('request', (r) => { if (r.url().endsWith('/script.js')) asked.push(r.headers().referer ?? ''); });
    await page.goto(`http://127.0.0.1:${strangerPort}/`);
    await page.waitForTimeout(1500);
    expect(asked).toEqual([`http://127.0.0.1:${strangerPort}/`]);
    const direct = await fetch(embed.match(/src="([^"]+)"/)![1], { headers: { referer: asked[0] } });
    expect(direct.status).toBe(403);
    expect(await page.locator('[data-mandi-chat]').count()).toBe(0);
    await page.close();
    await setStatus(host, agent, 'offline');
  }, 30_000);
});
