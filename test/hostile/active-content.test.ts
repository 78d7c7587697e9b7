/**
 * Attacks on the console's origin through module answers (DESIGN wave 3: module answers never run as
 * active content on the console's origin). The web console is served at `/`, the same origin as
 * /api, and keeps its bearer token in sessionStorage: a page a module answers there, opened in the
 * console's tab, could read that token. Against a real platform, with the hostile module `lure`
 * in the sandbox and a super admin signed in through the console in Debian's Chromium:
 *  - the bell never takes the console tab to a notification link under /api/;
 *  - the module's HTML, opened in the signed-in tab all the same, runs no script: the session is
 *    neither read nor used (no tenant is created with it);
 *  - notifications.send refuses links that are no console path;
 *  - manifests declaring an active content type are refused, naming the JSON pointer.
 * Screenshots go to artifacts/active-content-*.png.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { QueryTypes } from 'sequelize';
import { filesInDir, LoadedModule } from '../../core/kernel/modules/loaded-module';
import { validateManifest, type Manifest } from '../../sdk/manifest';
import { signIn, until } from '../console/support';
import { findChromium } from '../support/chromium';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'artifacts');
const LURE = path.join(__dirname, 'fixtures/modules/lure');
const found = findChromium();
const browserTest = 'path' in found ? test : test.skip;

let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;
let browser: Browser | undefined;
let token: string;
let lureUrl: string;
let reportUrl: string;

beforeAll(async () => {
  tp = await startTestPlatform();
  owner = await tp.install('acme');
  // A package published before active content types were refused: the host still holds its manifest as it was.
  const manifest = JSON.parse(readFileSync(path.join(LURE, 'module.json'), 'utf8')) as Manifest;
  tp.platform.kernel.source.add(new LoadedModule(manifest, readFileSync(path.join(LURE, 'index.js'), 'utf8'), filesInDir(LURE)));
  const installed = await tp.api('/modules/lure/install', { token: owner.token, tenant: 'acme', body: {} });
  if (installed.status !== 201) throw new Error(`install lure: ${installed.status} ${JSON.stringify(installed.body)}`);
  ({ token } = (await tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'lure.open', {}, { tenantId: owner.tenantId, user: null })) as { token: string });
  lureUrl = `/api/lure/${token}/page`;
  reportUrl = `/api/lure/${token}/report`;
  if ('path' in found) browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await tp?.close();
});

/** Tenants the lure's script would have created with the stolen token. */
const pwnedTenants = () => tp.platform.central.models.Tenant.count({ where: { name: 'Pwned' } });

/** A notification as an older platform stored it, before links were checked where notifications are created. */
async function storeNotification(title: string, actionUrl: string): Promise<void> {
  await tp.platform.tenantDbs.with(owner.tenantId, (db) =>
    db.query(
      `INSERT INTO notifications (user_id, type, title, severity, action_url, created_at, updated_at) VALUES ($1, 'lure.report', $2, 'info', $3, now(), now())`,
      { bind: [owner.userId, title, actionUrl], type: QueryTypes.INSERT },
    ),
  );
}

async function signedInPage(): Promise<Page> {
  const page = await browser!.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: false });
  await signIn(page, tp.url, 'acme', 'ada@acme.example', 'correct-horse-battery');
  return page;
}

async function shot(page: Page, name: string, steps: () => Promise<void>): Promise<void> {
  try {
    await steps();
  } finally {
    await page.screenshot({ path: path.join(ARTIFACTS, `active-content-${name}.png`), fullPage: true }).catch(() => undefined);
    await page.close();
  }
}

describe(`hostile: a module's HTML on the console's origin, in Chromium${'reason' in found ? ` (SKIPPED, no Chromium: ${found.reason})` : ''}`, () => {
  browserTest("the bell does not take a super admin's console tab to a notification link under /api/", async () => {
    await storeNotification('Your report is ready', lureUrl);
    const page = await signedInPage();
    await shot(page, 'bell-api-link', async () => {
      await page.locator('[data-bell]').click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      await panel.getByText('Your report is ready').waitFor();
      const open = panel.getByRole('link', { name: 'Open' });
      // Clicked where offered (the old console did): the lure would run in this tab.
      if (await open.count()) await open.first().click();
      await new Promise((r) => setTimeout(r, 1000));
      expect(await pwnedTenants()).toBe(0);
      expect(new URL(page.url()).pathname).not.toMatch(/^\/api\//i);
      expect(await open.count()).toBe(0);
      // Nor does any other link to /api in the console (markup a module got into a page, say) take the tab there.
      await page.evaluate(`document.querySelector('main').append(Object.assign(document.createElement('a'), { href: '/api/v1/auth/me', textContent: 'Planted link' }))`);
      await page.getByRole('link', { name: 'Planted link' }).click();
      await new Promise((r) => setTimeout(r, 1000));
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await pwnedTenants()).toBe(0);
    });
  }, 120_000);

  browserTest("the module's HTML opened in the signed-in console tab runs no script: the session is neither read nor used", async () => {
    const page = await signedInPage();
    await shot(page, 'module-page', async () => {
      const before = await page.evaluate(() => sessionStorage.getItem('mandi.console.session'));
      expect(before).toContain('"token"');
      // Followed in the console's own tab (pasted, or linked from anywhere): a download, never a page of the console's origin.
      const answer = await page.goto(`${tp.url}${lureUrl}`).catch((err: Error) => err);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await pwnedTenants()).toBe(0);
      expect(await page.locator('#lure').count()).toBe(0);
      expect(String(answer)).toContain('Download is starting');
      // The tab is still the console's page, signed in: nothing of the module's ran in it.
      expect(new URL(page.url()).pathname).toBe('/');
      await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    });
  }, 120_000);

  browserTest('a module page opened in the signed-in console tab runs in no origin: its script cannot read or use the session', async () => {
    const page = await signedInPage();
    await shot(page, 'module-page-kind', async () => {
      await page.goto(`${tp.url}${reportUrl}`);
      await until(async () => (await page.locator('#lure').getAttribute('data-ran')) === 'yes', "the page's own script");
      expect(await page.locator('#lure').getAttribute('data-storage')).toBe('refused');
      expect(await page.locator('#lure').getAttribute('data-token')).toBe('');
      await new Promise((r) => setTimeout(r, 500));
      expect(await pwnedTenants()).toBe(0);
    });
  }, 120_000);

  browserTest('spec 1 Client behaviour: the console frames a module page where no screen matches, and the frame reaches nothing of the console', async () => {
    const page = await signedInPage();
    await shot(page, 'module-page-framed', async () => {
      await page.goto(`${tp.url}/m/lure/${token}/report`);
      const frame = page.locator('iframe.module-page');
      await frame.waitFor();
      expect(await frame.getAttribute('src')).toBe(reportUrl);
      expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
      const inside = page.frameLocator('iframe.module-page').locator('#lure');
      await until(async () => (await inside.getAttribute('data-ran').catch(() => null)) === 'yes', "the framed page's script");
      expect(await inside.getAttribute('data-storage')).toBe('refused');
      await page.screenshot({ path: path.join(ARTIFACTS, 'active-content-module-page-in-console.png') });
      await new Promise((r) => setTimeout(r, 500));
      expect(await pwnedTenants()).toBe(0);
      // The text/html answer of a manifest from before the rule is a download, never framed.
      await page.goto(`${tp.url}/m/lure/${token}/page`);
      await page.getByRole('alert').filter({ hasText: `No screen or module page at /m/lure/${token}/page` }).waitFor();
    });
  }, 120_000);

  browserTest('a legitimate notification link opens its console page from the bell', async () => {
    await tp.platform.kernel.bus.call(
      { kind: 'core', name: 'test' },
      'notifications.send',
      { user_id: owner.userId, type: 'modules.review', title: 'Review your modules', action_url: '/admin/modules' },
      { tenantId: owner.tenantId, user: null },
    );
    const page = await signedInPage();
    await shot(page, 'bell-console-link', async () => {
      await page.locator('[data-bell]').click();
      const item = page.getByRole('region', { name: 'Notifications' }).getByRole('listitem').filter({ hasText: 'Review your modules' });
      await item.getByRole('link', { name: 'Open' }).click();
      await until(async () => new URL(page.url()).pathname === '/admin/modules', 'the Modules page');
      await page.getByRole('heading', { name: 'Modules' }).first().waitFor();
      // The console routed it in place: the same document, still signed in.
      expect(await page.evaluate(() => sessionStorage.getItem('mandi.console.session'))).toContain('"token"');
    });
  }, 120_000);
});

describe("hostile: the module's HTML as the host serves it", () => {
  test('a type its manifest should not have declared goes out as a download, sandboxed and never sniffed', async () => {
    const res = await fetch(`${tp.url}${lureUrl}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment');
    expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
  test('a module page is served under its own sandbox, of no origin, with nothing to load or send', async () => {
    const res = await fetch(`${tp.url}${reportUrl}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox allow-scripts; default-src 'none';/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/allow-same-origin|connect-src|allow-forms|allow-top-navigation/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('hostile: notification links name console paths only', () => {
  const send = (action_url: string) =>
    tp.platform.kernel.bus
      .call({ kind: 'core', name: 'test' }, 'notifications.send', { user_id: owner.userId, type: 'lure.link', title: 'Link', action_url }, { tenantId: owner.tenantId, user: null })
      .then(
        () => 'sent',
        (err: { code?: string; details?: { errors?: Record<string, string[]> } }) => `${err.code}: ${err.details?.errors?.action_url?.[0] ?? ''}`,
      );

  test.each(['/api/lure/aToken0123456789abcdefghijklmn/page', '/api/v1/auth/me', '/API/v1/x', '/m/../api/lure/x', '/m/%2e%2e/api/x', '//evil.example/x', 'https://evil.example/', 'javascript:alert(1)', '/\\evil.example'])(
    'refused: %s',
    async (url) => {
      expect(await send(url)).toMatch(/^VALIDATION_FAILED: The action url must be a console path/);
    },
  );

  test.each(['/orders/42', '/m/orders/list?status=pending', '/admin/modules', '/live-chat/conversations/9#last'])('a console path is sent: %s', async (url) => {
    expect(await send(url)).toBe('sent');
  });
});

describe('hostile: manifests declaring active content types are refused', () => {
  const manifest = JSON.parse(readFileSync(path.join(LURE, 'module.json'), 'utf8')) as Manifest;
  const withType = (content_type: string, kind = 'text') => {
    const m = structuredClone(manifest) as unknown as { http: { public: { routes: Array<{ response: unknown }> } } };
    m.http.public.routes[0]!.response = { kind, content_type };
    return m;
  };

  test.each([
    ['text', 'text/html; charset=utf-8'],
    ['text', 'application/xhtml+xml'],
    ['bytes', 'image/svg+xml'],
    ['text', 'text/xml'],
    ['text', 'application/xml'],
    ['bytes', 'application/rss+xml'],
    ['text', 'text/xsl'],
    ['stream', 'text/html'],
    ['bytes', 'multipart/x-mixed-replace'],
  ])('%s %s: refused at its JSON pointer', (kind, type) => {
    const result = validateManifest(withType(type, kind));
    expect(result.ok).toBe(false);
    const errors = result.ok ? [] : result.errors;
    expect(errors).toEqual([
      expect.objectContaining({ pointer: '/http/public/routes/0/response/content_type', message: expect.stringContaining('a browser would run') }),
    ]);
  });

  test('a page is declared as kind "page" alone, answering GET', () => {
    const page = (route: Record<string, unknown>) => {
      const m = structuredClone(manifest) as unknown as { http: { public: { routes: Array<Record<string, unknown>> } } };
      Object.assign(m.http.public.routes[0]!, route);
      return validateManifest(m);
    };
    expect(page({ response: { kind: 'page' } })).toMatchObject({ ok: true });
    expect(page({ response: { kind: 'page', content_type: 'text/html' } })).toMatchObject({ ok: false, errors: [expect.objectContaining({ pointer: '/http/public/routes/0/response/content_type' })] });
    expect(page({ method: 'POST', response: { kind: 'page' } })).toMatchObject({ ok: false, errors: [expect.objectContaining({ pointer: '/http/public/routes/0/method' })] });
  });

  test.each([['text', 'text/csv'], ['text', 'application/javascript'], ['bytes', 'application/pdf'], ['bytes', 'image/png'], ['stream', 'text/event-stream']])(
    '%s %s: accepted',
    (kind, type) => {
      expect(validateManifest(withType(type, kind))).toMatchObject({ ok: true });
    },
  );
});
