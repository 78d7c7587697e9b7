/**
 * spec 2, Live chat: the embed code as `GET /live-chat/widgets/{id}/embed-code` gives it, without
 * `base_url`, on a platform whose APP_URL is `http://localhost:<port>` (a newcomer's `./run start`).
 * The snippet is pasted exactly as given into a page served on another port and opened in Chromium
 * (Debian's, scripts/ensure-chromium.sh): the widget loads from the platform's scheme, tenant
 * subdomain and port, and a visitor's message reaches the agent API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import type { TestHost } from '../../../sdk/testing';
import { findChromium } from './chromium';
import { addAgent, createWidget, freePort, requestAs, setStatus, startHost, type Agent } from './support';

const found = findChromium();
if ('reason' in found) console.warn(`live chat embed code browser test skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

let host: TestHost;
let browser: Browser | undefined;
let pages: http.Server | undefined;
let agent: Agent;
let port: number;

beforeAll(async () => {
  if (!('path' in found)) return;
  // The platform listens where APP_URL says, as `./run start` does (PORT 3000, APP_URL http://localhost:3000).
  port = await freePort();
  host = await startHost({ PORT: String(port), APP_URL: `http://localhost:${port}` });
  agent = await addAgent(host, { name: 'Noor' });
  browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  pages?.close();
  await host?.close();
});

describe('spec 2 Live chat: the embed code works as given, off port 443', () => {
  browserTest('without base_url the snippet names APP_URL\'s scheme and port on the tenant\'s subdomain, and a page embedding it chats', async () => {
    const widget = await createWidget(host, { name: 'Embedded' });
    const embed = await host.request('GET', `/live-chat/widgets/${widget.id}/embed-code`);
    expect(embed.status).toBe(200);
    const scriptUrl = embed.body.script_url as string;
    expect(scriptUrl).toMatch(new RegExp(`^http://[a-z0-9_-]+\\.localhost:${port}/api/widget/${widget.token}/script\\.js$`));
    expect(embed.body.embed_code).toBe(`<script src="${scriptUrl}" async></script>`);

    pages = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>${embed.body.embed_code}</body></html>`));
    await new Promise<void>((r) => pages!.listen(0, '127.0.0.1', r));
    const page = await browser!.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/`);

    const launcher = page.locator('[data-mandi-chat] >> button.launcher');
    await launcher.waitFor({ state: 'visible', timeout: 15_000 });
    await launcher.click();
    await page.locator('[data-mandi-chat] >> input[name=name]').fill('Dana');
    await page.locator('[data-mandi-chat] >> input[name=email]').fill('dana@example.com');
    await page.locator('[data-mandi-chat] >> form.pre button').click();
    const text = page.locator('[data-mandi-chat] >> input[name=message]');
    await text.waitFor({ state: 'visible' });
    await text.fill('Do you ship to Lisbon?');
    await text.press('Enter');

    const listed = await host.eventually(async () => {
      const res = await requestAs(host, agent.token, 'GET', `/live-chat/conversations?widget_id=${widget.id}&search=Lisbon`);
      expect(res.body.data).toHaveLength(1);
      return res;
    }, 15_000);
    const messages = await requestAs(host, agent.token, 'GET', `/live-chat/conversations/${listed.body.data[0].id}/messages`);
    expect(messages.body.data.map((m: { content: string }) => m.content)).toContain('Do you ship to Lisbon?');
    expect(problems).toEqual([]);
    await page.close();
    await setStatus(host, agent, 'offline');
  }, 60_000);
});
