/**
 * Shared by the console's browser tests and its benchmark: a platform with the orders module (from
 * modules/orders, as a local source) holding `orders` orders, the showcase fixture, and a browser
 * page signed in through the console's own form.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { buildModule } from '../../sdk/build/build-module';
import { needsBuild } from '../../sdk/build/needs-build';
import type { TestPlatform } from '../support/test-platform';

export const ORDERS = path.resolve(__dirname, '../../modules/orders');
export const fixture = (name: string) => path.join(__dirname, 'fixtures', name);

/** A local module folder built (when stale), added to the platform's sources and installed in the tenant. */
export async function installLocal(tp: TestPlatform, who: { token: string; tenant: string }, dir: string, alias: string): Promise<void> {
  if (await needsBuild(dir, 'dist/index.js')) await buildModule(dir);
  tp.platform.kernel.source.add(await loadModuleFromDir(dir));
  const res = await tp.api(`/modules/${alias}/install`, { ...who, body: {} });
  if (res.status !== 201) throw new Error(`install ${alias} failed: ${res.status} ${JSON.stringify(res.body)}`);
}

export const orderBody = (n: number, status: string) => ({
  order_number: `WEB-${String(n).padStart(2, '0')}`,
  customer: { id: `cust-${n}`, name: `Customer ${n}`, email: `c${n}@example.com`, phone: '+919800000000' },
  items: [{ name: 'Kurta', sku: 'K-1', hsn_code: '6109', quantity: 1, unit_price: `${100 + n}.00` }],
  shipping_address: { name: `Customer ${n}`, line1: '1 MG Road', city: 'Bengaluru', state: 'Karnataka', pincode: '560001', phone: '+919800000000' },
  status,
});

/** `count` orders, every third one pending and the rest confirmed. */
export async function createOrders(tp: TestPlatform, who: { token: string; tenant: string }, count: number): Promise<void> {
  for (let n = 1; n <= count; n++) {
    const res = await tp.api('/orders', { ...who, body: orderBody(n, n % 3 === 0 ? 'pending' : 'confirmed') });
    if (res.status !== 201) throw new Error(`order failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
}

/** Signs in through the console's form (tenant picker, email, password), as a person would. */
export async function signIn(page: Page, url: string, tenant: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/`);
  await page.locator('#si-tenant').fill(tenant);
  await page.locator('#si-email').fill(email);
  await page.locator('#si-password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
}

/** Polls fn until it returns true (the console's CSP refuses page.waitForFunction's string evaluation). */
export async function until(fn: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One attribute of every element the locator matches, in document order, read in one pass (a list that re-renders meanwhile cannot strand a read on a row that is gone). */
export const attrs = (loc: Locator, name: string): Promise<Array<string | null>> => loc.evaluateAll((els, n) => els.map((e) => (e as unknown as { getAttribute(a: string): string | null }).getAttribute(n)), name);

/** A shop's static page on its own origin (127.0.0.1, a free port), embedding what `embed()` gives at each request (the widget's embed code). */
export async function startShopPage(embed: () => string): Promise<{ origin: string; close: () => void }> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>Shop</title></head><body><h1>Our shop</h1>${embed()}</body></html>`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
