/**
 * The web console in a real browser: Debian's Chromium driven by playwright-core against a real
 * platform (PostgreSQL, sandboxed modules, sockets). Screenshots go to artifacts/console-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../support/chromium';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { publishFixture } from '../catalogs/support';
import { promoteOk } from '../rings/support';
import { attrs, createOrders, fixture, installLocal, ORDERS, signIn, until } from './support';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const found = findChromium();
if ('reason' in found) console.warn(`console browser tests skipped: ${found.reason}`);
const browserTest = 'path' in found ? test : test.skip;

describe(`spec 1 Server-driven screens and the admin console, in Chromium${'reason' in found ? ` (SKIPPED, no Chromium: ${found.reason})` : ''}`, () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let browser: Browser | undefined;
  /** Console errors and uncaught exceptions of the current test's page. */
  let problems: string[] = [];

  beforeAll(async () => {
    if (!('path' in found)) return;
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    const who = { token: owner.token, tenant: 'acme' };
    await installLocal(tp, who, ORDERS, 'orders');
    await installLocal(tp, who, fixture('showcase'), 'showcase');
    await createOrders(tp, who, 25);
    // Two versions of the catalogs' kiosk fixture in the registry, the first released to this tenant's ring.
    await publishFixture(tp, owner.token, 'kiosk@1.0.0');
    await publishFixture(tp, owner.token, 'kiosk@2.0.0');
    const me = await tp.api('/auth/me', who);
    await promoteOk(tp, owner.token, me.body.tenant.ring, 'kiosk', '1.0.0');
    browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
    await tp?.close();
  });

  async function newPage(width = 1280, height = 900): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width, height } });
    problems = [];
    // A failed request is listed with its URL (the browser's own console line for it names none).
    page.on('console', (m) => { if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text()); });
    page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
    page.on('pageerror', (e) => problems.push(e.message));
    await signIn(page, tp.url, 'acme', 'ada@acme.example', 'correct-horse-battery');
    return page;
  }

  /** Runs the steps; the screenshot is taken whatever happens, showing what the user saw. */
  async function shot(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
    try {
      await steps();
    } finally {
      await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });
      await page.close();
    }
  }

  browserTest('GET / serves the console under a script-src \'self\' CSP; /api stays JSON', async () => {
    const page = await fetch(`${tp.url}/m/orders/list`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/console/app.js">');
    const missing = await fetch(`${tp.url}/api/v1/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
    expect((await fetch(`${tp.url}/console/nope.js`)).status).toBe(404);
  });

  browserTest('sign in; /m/orders/list: debounced search, filter, Load More, open a row, an api-call with confirm and its result', async () => {
    const page = await newPage();
    const dataRequests: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/mobile/screens/orders.list/data/orders')) dataRequests.push(r.url()); });
    await shot(page, 'orders', async () => {
      // No token is ever a cookie: the API is bearer-only and the session lives in sessionStorage.
      expect(await page.context().cookies()).toEqual([]);
      await page.goto(`${tp.url}/m/orders/list`);
      const rows = page.locator('[data-rows="orders"] > li');
      await until(async () => (await rows.count()) === 20, 'the first page of 20 orders');
      await expect(page.locator('.list-foot').textContent()).resolves.toContain('20 of 25');
      await page.screenshot({ path: path.join(ARTIFACTS, 'console-orders-list.png') });
      // Field types on real data: a currency, a badge resolved from badge_colors, a relative time.
      const first = await rows.first().textContent();
      expect(first).toMatch(/WEB-\d\d/);
      expect(first).toContain('₹');
      expect(await rows.first().locator('.badge').first().getAttribute('class')).toMatch(/badge-(success|warning|secondary|destructive)/);

      await page.locator('[data-load-more="orders"]').click();
      await until(async () => (await rows.count()) === 25, 'all 25 orders after Load More');
      expect(await page.locator('[data-load-more="orders"]').count()).toBe(0);
      expect(dataRequests.at(-1)).toContain('page=2');

      // Typed a key at a time faster than the debounce: one request, for the whole word.
      const before = dataRequests.length;
      await page.locator('[data-search="orders"]').pressSequentially('WEB-07', { delay: 40 });
      await until(async () => (await rows.count()) === 1, 'one order found');
      expect(await rows.first().textContent()).toContain('WEB-07');
      expect(dataRequests.slice(before).map((u) => new URL(u).searchParams.get('search'))).toEqual(['WEB-07']);
      await page.locator('[data-search="orders"]').fill('');

      await page.locator('[data-filter="status"]').selectOption('pending');
      await until(async () => (await rows.count()) === 8, 'the 8 pending orders');
      // Each row's first badge is its status (the second its payment status).
      const states = await Promise.all((await rows.all()).map((r) => r.locator('.badge').first().textContent()));
      expect(states).toEqual(Array(8).fill('pending'));
      expect(new URL(dataRequests.at(-1)!).searchParams.get('status')).toBe('pending');

      // Open a row (on_tap navigate to /orders/{{id}}, the detail screen's route).
      const number = (await rows.first().locator('.field-text').first().textContent())!;
      await rows.first().locator('button').click();
      await page.locator('[data-screen="orders.detail"]').waitFor();
      expect(page.url()).toMatch(/\/m\/orders\/[0-9a-f-]{36}/);
      await until(async () => ((await page.locator('[data-section="summary"]').textContent()) ?? '').includes(number), 'the order summary');
      const orderId = new URL(page.url()).pathname.split('/').pop()!;

      // An api-call action with confirm: cancelling the dialog runs nothing; confirming creates the invoice.
      await page.locator('[data-action="create-invoice"]').click();
      const dialog = page.getByRole('alertdialog');
      await expect(dialog.textContent()).resolves.toContain('Issue a GST invoice for this order?');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      const invoicesOf = async () => (await tp.api(`/orders/${orderId}/invoices`, { token: owner.token, tenant: 'acme' })).body.invoices as Array<{ invoice_number: string }>;
      expect(await invoicesOf()).toEqual([]);
      await page.locator('[data-action="create-invoice"]').click();
      await page.locator('[data-confirm="ok"]').click();
      await page.locator('.toast-ok').waitFor();
      const invoices = await invoicesOf();
      expect(invoices).toHaveLength(1);
      expect(await page.locator('.toast-ok').textContent()).toContain(invoices[0].invoice_number);
    });
    expect(problems).toEqual([]);
  }, 120_000);

  browserTest('a module using every section and field type: each renders; bad sections show a placeholder and the rest works', async () => {
    const page = await newPage();
    await shot(page, 'showcase', async () => {
      await page.goto(`${tp.url}/m/showcase/all`);
      await page.locator('[data-screen="showcase.all"]').waitFor();
      const section = (id: string) => page.locator(`[data-section="${id}"]`);
      await until(async () => (await section('rows').locator('[data-rows] > li').count()) === 20, 'the rows');
      // Every web section type is on the page, rendered by its own renderer.
      const types = await attrs(page.locator('[data-type]'), 'data-type');
      for (const t of ['stats-row', 'list', 'grid', 'detail-fields', 'form', 'card', 'chart', 'timeline', 'actions-bar', 'empty-state', 'banner', 'tabs', 'image-gallery']) expect(types).toContain(t);

      await until(async () => (await section('stats').locator('.stat').count()) === 3, 'the stats');
      expect(await section('stats').textContent()).toMatch(/Orders.*42.*Revenue.*₹12,345\.50.*Growth.*12\.5%/);
      // Every field type on one row of the list.
      const row = section('rows').locator('[data-rows] > li').first();
      const cell = (type: string) => row.locator(`.field-${type}`);
      expect(await cell('text').textContent()).toBe('« Thing 1 »');
      expect(await cell('number').textContent()).toBe('1,001 pcs');
      expect(await cell('currency').textContent()).toBe('₹100.50');
      expect(await cell('date').getAttribute('datetime')).toMatch(/^2026-03-02/);
      expect(await cell('datetime').getAttribute('datetime')).toBe('2026-03-01T10:30:00.000Z');
      expect(await cell('relative-time').textContent()).toMatch(/hour ago|minutes ago/);
      expect(await cell('badge').getAttribute('class')).toContain('badge-success');
      expect(await section('rows').locator('[data-rows] > li').nth(1).locator('.field-badge').getAttribute('class')).toContain('badge-warning');
      expect(await cell('image').getAttribute('class')).toContain('image-sm');
      expect(await cell('boolean').textContent()).toContain('Yes');
      expect(await cell('percent').textContent()).toBe('12.5%');
      expect(await cell('weight').textContent()).toBe('1.25 kg');
      expect(await cell('color').textContent()).toContain('#ff8800');
      await section('rows').locator('[data-load-more="rows"]').click();
      await until(async () => (await section('rows').locator('[data-rows] > li').count()) === 30, 'the rows after Load More');

      expect(await section('tiles').locator('.tile').count()).toBe(20);
      await until(async () => (await section('detail').locator('.detail').count()) === 12, 'the detail fields');
      expect(await section('card').locator('.card-title').textContent()).toBe('Thing 7');
      for (const kind of ['bar', 'line', 'pie']) expect(await page.locator(`[data-chart="${kind}"]`).count()).toBe(1);
      expect(await page.locator('[data-chart="bar"] rect').count()).toBe(3);
      expect(await page.locator('[data-chart="pie"] path').count()).toBe(3);
      expect(await section('events').locator('.timeline li').count()).toBe(2);
      expect(await section('bar').getByRole('button').count()).toBe(2);
      expect(await section('empty').textContent()).toContain('No things yet.');
      for (const v of ['info', 'warning', 'error', 'success']) expect(await section(v).locator(`.banner-${v}`).count()).toBe(1);
      expect(await section('gallery').locator('img').count()).toBe(2);
      // Tabs: nested sections, switched with the arrow keys.
      expect(await section('tab-banner').count()).toBe(1);
      await section('tabs').getByRole('tab', { name: 'One' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await section('tab-empty').textContent()).toContain('Inside tab two');
      expect(await section('scanner').textContent()).toContain('mobile app');

      // Bad data from the module: each bad section alone shows a placeholder.
      expect(await page.locator('[data-placeholder="future"]').textContent()).toContain('Unknown section type "carousel"');
      expect(await page.locator('[data-placeholder="bad-tabs"]').textContent()).toContain('malformed');
      await until(async () => (await section('odd-field').locator('.field-unknown').count()) === 1, 'the unknown field type');
      expect(await section('odd-field').locator('.field-unknown').textContent()).toContain('unknown field type “hologram”');
      expect(await section('odd-field').locator('.field-text').textContent()).toBe('Thing 7');

      // The form: validation in the browser, each message beside its input, then the api-call with the values.
      const form = section('form');
      await form.getByRole('button', { name: 'Send' }).click();
      expect(await form.locator('.input-error').allTextContents()).toEqual(['Note is required.']);
      expect(await form.getByLabel('Note').getAttribute('aria-invalid')).toBe('true');
      await form.getByLabel('Note').fill('hello');
      await form.getByLabel('Quantity').fill('12');
      await form.getByRole('button', { name: 'Send' }).click();
      expect(await form.locator('.input-error').allTextContents()).toEqual(['Quantity may not be greater than 9.']);
      await form.getByLabel('Quantity').fill('3');
      await form.getByRole('button', { name: 'Send' }).click();
      await until(async () => ((await page.locator('.toast-ok').allTextContents()).join(' ')).includes('"note":"hello"'), 'the echoed form');
      // `{{qty}}` alone in a string keeps the value's type: the number typed, sent as a number.
      expect(await page.locator('.toast-ok').first().textContent()).toContain('"qty":3');
    });
    expect(problems).toEqual([]);
  }, 120_000);

  browserTest('spec 1 Notifications: the bell counts a notification the moment it is created (.notification.created on the socket)', async () => {
    const page = await newPage();
    await shot(page, 'bell', async () => {
      await page.locator('[data-bell]').waitFor();
      expect(await page.locator('[data-unread]').count()).toBe(0);
      // Created after the page loaded: only the socket can bring it.
      await until(async () => (await page.locator('[data-bell]').getAttribute('aria-label')) === 'Notifications, 0 unread', 'the unread count');
      await new Promise((r) => setTimeout(r, 500)); // the socket has joined its user channel
      await tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'notifications.send', { user_id: owner.userId, type: 'test.ping', title: 'Stock is low', icon: 'AlertTriangle' }, { tenantId: owner.tenantId, user: null });
      await until(async () => (await page.locator('[data-unread]').textContent().catch(() => '')) === '1', 'the bell to count 1');
      await page.locator('[data-bell]').click();
      expect(await page.getByRole('region', { name: 'Notifications' }).textContent()).toContain('Stock is low');
    });
    expect(problems).toEqual([]);
  }, 60_000);

  browserTest('spec 1 Client behaviour: a path neither a screen nor a module page names shows the 404 (module pages: test/hostile/active-content.test.ts)', async () => {
    const page = await newPage();
    await shot(page, 'no-screen', async () => {
      await page.goto(`${tp.url}/m/showcase/nothing/here`);
      await page.getByRole('alert').filter({ hasText: 'No screen or module page at /m/showcase/nothing/here' }).waitFor();
    });
    // As spec 1 says, each first load asks the definition by the path first, then the module's page: their 404s are the answer.
    expect(problems).toEqual(['404 GET /api/v1/mobile/screens/showcase/nothing/here', '404 GET /api/showcase/nothing/here']);
  }, 60_000);

  browserTest('phone width: the navigation folds behind a menu button and a screen stays usable', async () => {
    const page = await newPage(390, 844);
    await shot(page, 'phone', async () => {
      await page.goto(`${tp.url}/m/orders/list`);
      await until(async () => (await page.locator('[data-rows="orders"] > li').count()) === 20, 'the orders');
      expect(await page.locator('#nav').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await page.locator('#nav').isVisible()).toBe(true);
      expect((await page.locator('main').boundingBox())!.width).toBeLessThanOrEqual(390);
      expect((await page.locator('[data-rows="orders"]').boundingBox())!.width).toBeLessThanOrEqual(390);
    });
  }, 60_000);

  browserTest('install a module, then promote and roll back its ring from the console, progress shown live; a refused promotion and a broken definition show the API\'s reasons', async () => {
    const page = await newPage();
    const events: string[] = [];
    page.on('websocket', (ws) => ws.on('framereceived', (f) => { if (String(f.payload).includes('.module.operation')) events.push(String(f.payload)); }));
    await shot(page, 'modules', async () => {
      await page.goto(`${tp.url}/admin/modules`);
      await page.locator('[data-install="kiosk"]').click();
      await page.locator('[data-operation]').waitFor();
      await until(async () => (await page.locator('[data-operation]').getAttribute('data-status')) === 'completed', 'the install to complete');
      await until(async () => (await page.locator('[data-table="installed"] [data-module="kiosk"]').count()) === 1, 'kiosk installed');
      expect(await page.locator('[data-table="installed"] [data-module="kiosk"]').textContent()).toContain('1.0.0');
      expect(events.length).toBeGreaterThan(0);

      const ring = (await tp.api('/auth/me', { token: owner.token, tenant: 'acme' })).body.tenant.ring as string;
      await page.goto(`${tp.url}/admin/rings`);
      const promote = page.locator('form.inline-form');
      await promote.getByLabel('Ring', { exact: true }).selectOption(ring);
      await promote.getByLabel('Module').fill('kiosk');
      await promote.getByLabel('Version').fill('9.9.9');
      await promote.getByRole('button', { name: 'Promote' }).click();
      await page.getByRole('alert').filter({ hasText: 'Refused' }).waitFor();
      expect(await page.getByRole('alert').filter({ hasText: 'Refused' }).textContent()).toMatch(/9\.9\.9/);

      await promote.getByLabel('Version').fill('2.0.0');
      await promote.getByRole('button', { name: 'Promote' }).click();
      await until(async () => (await page.locator('[data-operation]').getAttribute('data-status')) === 'completed', 'the promotion');
      expect((await tp.api('/modules', { token: owner.token, tenant: 'acme' })).body.installed.find((m: { alias: string }) => m.alias === 'kiosk').version).toBe('2.0.0');

      await page.locator(`[data-ring="${ring}"]`).getByRole('button', { name: 'Roll back' }).click();
      await page.locator('[data-confirm="ok"]').click();
      const kioskVersion = async () => (await tp.api('/modules', { token: owner.token, tenant: 'acme' })).body.installed.find((m: { alias: string }) => m.alias === 'kiosk').version;
      // The panel may still show the promotion's completed operation until the rollback's own events arrive: wait for both.
      await until(
        async () =>
          (await page.locator('[data-operation]').getAttribute('data-status')) === 'completed' && (await page.locator('[data-operation]').textContent())!.includes('rollback') && (await kioskVersion()) === '1.0.0',
        'the ring rollback',
      );
      expect(await kioskVersion()).toBe('1.0.0');

      // A screen whose definition the core refuses (a section without an id): the problems are shown, the console still works.
      await page.goto(`${tp.url}/m/kiosk/broken`);
      const alert = page.getByRole('alert').filter({ hasText: 'could not be opened' });
      await alert.waitFor();
      expect(await alert.textContent()).toContain('SCREEN_DEFINITION_INVALID');
      expect(await alert.textContent()).toContain('/sections/1/id must be a non-empty string');
      await page.getByRole('link', { name: 'Modules' }).click();
      await page.locator('[data-table="installed"]').waitFor();

      // The refusals asked for: the unknown version, the broken definition.
      expect(problems).toEqual([`404 POST /api/v1/rings/${ring}/promote`, '502 GET /api/v1/mobile/screens/kiosk/broken']);
    });
  }, 180_000);
});
