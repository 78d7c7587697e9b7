/**
 * A module's console page in real Chromium (docs/decisions/console-pages.md): the pagekit fixture's
 * page greets the user through its module's route and follows its channel, in the sandboxed frame; its
 * probe page asks the console for a core route (/members, /auth/me), another module's route (/orders),
 * path tricks, another tenant's and the core's channels, reads the console's sessionStorage, its own
 * storage and cookies, fetches the API itself, and forges a request claiming another module. Each is
 * refused or blocked, and none reaches the platform. Screenshots: artifacts/console-page-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { fixture, installLocal, ORDERS, signIn, until } from '../console/support';
import { findChromium } from '../support/chromium';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ARTIFACTS = path.resolve(__dirname, '..', '..', 'artifacts');
const found = findChromium();
if ('reason' in found) console.warn(`console page browser tests skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

describe(`hostile: a module's console page reaches only its own module, in Chromium (docs/decisions/console-pages.md)${'reason' in found ? ` (SKIPPED: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!('path' in found)) return;
    tp = await startTestPlatform();
    const owner = await tp.install('acme');
    const who = { token: owner.token, tenant: 'acme' };
    await installLocal(tp, who, ORDERS, 'orders');
    await installLocal(tp, who, fixture('pagekit'), 'pagekit');
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await tp?.close();
  });

  /** A signed-in console; `requests` collects every API path asked (by the console or any frame). */
  async function open(): Promise<{ page: Page; requests: string[] }> {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(`${r.method()} ${r.url()}`));
    await signIn(page, tp.url, 'acme', 'ada@acme.example', 'correct-horse-battery');
    return { page, requests };
  }

  async function shot(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
    try {
      await steps();
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS, `console-page-${name}.png`), fullPage: true });
      await page.close();
    }
  }

  browserTest('the navigation lists the page; in its frame it calls its own route, follows its own channel and is told its sub-path', async () => {
    const { page } = await open();
    await shot(page, 'hello', async () => {
      await page.getByRole('navigation').getByRole('link', { name: 'Pagekit hello' }).click();
      expect(new URL(page.url()).pathname).toBe('/p/pagekit/hello');
      const frame = page.frameLocator('iframe.console-page');
      expect(await page.locator('iframe.console-page').getAttribute('sandbox')).toBe('allow-scripts');
      await frame.locator('#greeting').waitFor();
      expect(await frame.locator('#greeting').textContent()).toMatch(/^Hello, /);
      expect(await frame.locator('h1').textContent()).toMatch(/^Pagekit in /);
      await frame.locator('#live').waitFor();
      await frame.getByRole('button', { name: 'Ping' }).click();
      await until(async () => (await frame.locator('#pongs').textContent()) === 'pongs: pagekit.pong from the page', 'the pong on the module\'s channel');

      await page.goto(`${tp.url}/p/pagekit/hello/orders/7`);
      await page.frameLocator('iframe.console-page').locator('#greeting').waitFor();
      expect(await page.frameLocator('iframe.console-page').locator('#sub').textContent()).toBe('sub: /orders/7');
    });
  });

  browserTest('the probe page: core routes, another module\'s route, path tricks, foreign channels, the session, storage, cookies, its own fetch and a forged request all fail', async () => {
    const { page, requests } = await open();
    await shot(page, 'probe', async () => {
      // Opened from the navigation, so the console itself asks nothing more (its /auth/me came at sign-in).
      const started = requests.length;
      await page.getByRole('navigation').getByRole('link', { name: 'Pagekit probe' }).click();
      const frame = page.frameLocator('iframe.console-page');
      await frame.locator('[data-probe="done"]').waitFor();
      const outcomes = Object.fromEntries(await frame.locator('[data-probe]').evaluateAll((els) => els.map((e) => {
        const el = e as unknown as { getAttribute(a: string): string | null; textContent: string | null };
        return [el.getAttribute('data-probe'), el.textContent];
      })));
      const refused = 'refused 403 CONSOLE_PAGE_REFUSED';
      expect(outcomes).toEqual({
        'own-route': expect.stringMatching(/^allowed \{"greeting":"Hello, /),
        'core-members': refused,
        'core-auth-me': refused,
        'other-module': refused,
        traversal: refused,
        'encoded-traversal': refused,
        'absolute-url': refused,
        // The module's own route that looks like the platform's (declared `/api/v1/members`) is
        // called as the module's, at /api/v1/api/v1/members: the greeting, never the members list.
        'api-prefix': expect.stringMatching(/^allowed \{"greeting":"Hello, /),
        'other-tenant-channel': refused,
        'core-channel': refused,
        // The frame has no origin: the console's window, its own storage and cookies are out of reach.
        'parent-session': 'blocked SecurityError',
        'own-storage': 'blocked SecurityError',
        cookie: 'blocked SecurityError',
        // Its own fetch is refused by its policy (connect-src 'none'), before any request leaves.
        'fetch-api': 'blocked TypeError',
        // The console hears the frame as the frame: a message naming another module changes nothing.
        'forged-request': expect.stringMatching(/^allowed \{"status":403,"body":\{"message":"GET \/orders is not a route of the module pagekit.*CONSOLE_PAGE_REFUSED/),
        done: 'done',
      });
      // Nothing the probe asked for reached the platform but its own route.
      const asked = requests.slice(started).map((r) => r.replace(tp.url, ''));
      expect(asked.filter((r) => /^\w+ \/api\/v1\/(members|orders|auth\/me)\b|evil\.example/.test(r))).toEqual([]);
      expect(asked).toContain('GET /api/v1/pagekit/hello');
      expect(asked).toContain('GET /api/v1/api/v1/members');

      // A request posted by another window (here the console's own) is not the frame's: ignored.
      const before = requests.filter((r) => r.includes('/api/v1/pagekit/hello')).length;
      await page.evaluate(() => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage({ mandi: 'mandi.console-page', type: 'api', id: 1, method: 'GET', path: '/pagekit/hello' }, '*'));
      await new Promise((r) => setTimeout(r, 300));
      expect(requests.filter((r) => r.includes('/api/v1/pagekit/hello')).length).toBe(before);
    });
  });
});
