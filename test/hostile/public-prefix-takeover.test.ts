/**
 * The takeover of a live-chat widget by another tenant's module (DESIGN.md, wave 3: a public prefix
 * and a public token belong to one module across every ring and tenant). A widget token is public:
 * it sits in the embed code of every page of the shop. Tenant B installs a module of another alias
 * under the same prefix (`widget`), registers A's token with it, and makes its row come first in the
 * table; from then on A's pages would load B's script and send B their visitors' messages.
 * Refused at every step: the prefix has one owner platform-wide (install, publish, MODULE_PATHS),
 * the host makes every token, a token names one row, and a request is answered only by the module
 * owning the path's prefix.
 */
import path from 'node:path';
import { addFixture, callPublic, fixture, widgetPlatform, type WidgetPlatform } from '../public-routes/support';
import { publish } from '../rings/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const SQUATTER = path.join(__dirname, 'fixtures', 'widget-squatter');
const LIVE_CHAT_DIR = path.resolve(__dirname, '../../modules/live-chat');

let w: WidgetPlatform;
let initech: string;
beforeAll(async () => {
  // Acme and Globex run widgetry (under /api/widget); Initech, the attacker, does not.
  w = await widgetPlatform();
  const made = await w.tp.api('/admin/tenants', { token: w.owner.token, tenant: 'acme', body: { name: 'Initech', alias: 'initech' } });
  if (made.status !== 201) throw new Error(`tenant initech: ${made.status} ${JSON.stringify(made.body)}`);
  initech = made.body.tenant.id;
  await addFixture(w.tp, SQUATTER);
}, 120_000);
afterAll(() => w.tp.close());

/** Installs a module in Initech, as its admin would. */
const installInInitech = (alias: string) => w.tp.api(`/modules/${alias}/install`, { token: w.owner.token, tenant: 'acme', headers: { 'x-effective-tenant': 'initech' }, body: {} });
/** Runs one of the squatter's operations in Initech: its code then calls the host as itself. */
const squatter = (op: 'register' | 'revoke', input: Record<string, unknown> = {}) =>
  w.tp.platform.kernel.bus.call({ kind: 'core' }, `widget_squatter.${op}`, input, { tenantId: initech, user: null }).then(
    (out) => out as { token?: string },
    () => ({}) as { token?: string },
  );
const call = (p: string, init?: Parameters<typeof callPublic>[2]) => callPublic(w.tp.url, p, init);

describe("hostile: another tenant's module taking over a live-chat widget", () => {
  test("a tenant's module cannot answer another tenant's widget token: A's script and A's messages stay A's", async () => {
    // Every step the attacker can take, in order; whatever the platform lets through, A's pages must not change.
    await installInInitech('widget_squatter');
    const fillers: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { token } = await squatter('register');
      if (token) fillers.push(token);
    }
    const acme = await w.asOwner('/widgetry/raw-tokens', { label: 'Acme chat' });
    expect(acme.status).toBe(201);
    const acmeToken = acme.body.token as string;
    // The attacker frees the table's first slots, so its next row is stored (and read) before A's.
    for (const token of fillers) await squatter('revoke', { token });
    await w.tp.platform.central.sequelize.query('VACUUM module_public_tokens');
    await squatter('register', { token: acmeToken });

    const script = await fetch(`${w.tp.url}/api/widget/${acmeToken}/script.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toBe('window.widgetName = null;');
    const message = await call(`/widget/${acmeToken}/messages`, { body: { text: 'I am Ana, ana@shop.example' } });
    expect(message.status).toBe(201);
    expect(message.body).not.toHaveProperty('received_in');
    expect((await w.asOwner('/widgetry/messages')).body.messages.map((m: { text: string }) => m.text)).toEqual(['I am Ana, ana@shop.example']);
  });

  test('no other alias may install under a public prefix another module owns, in any tenant', async () => {
    const res = await installInInitech('widget_squatter');
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'PUBLIC_PREFIX_TAKEN',
      message: 'Module widget_squatter cannot serve public routes under /api/widget: /api/widget belongs to module widgetry on this platform (a public prefix has one owner across every ring and tenant); choose another prefix.',
      details: { prefix: 'widget', owner: 'widgetry' },
    });
  });

  test('publishing a package under a prefix another module owns is refused', async () => {
    const res = await publish(w.tp, w.owner.token, SQUATTER);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'PUBLIC_PREFIX_TAKEN', details: { prefix: 'widget', owner: 'widgetry' } });
  });

  test('a module cannot choose its token: the host makes every one, and a known token cannot be registered again', async () => {
    const acme = await w.asOwner('/widgetry/raw-tokens', { label: 'Acme chat' });
    const again = await w.asOwner('/widgetry/raw-tokens', { token: acme.body.token }, 'globex');
    expect(again.status).toBe(422);
    expect(Object.keys(again.body.errors)).toEqual(['token']);
    expect((await call(`/widget/${acme.body.token}/config`)).body).toMatchObject({ tenant: w.owner.tenantId });
  });

  test('MODULE_PATHS naming two aliases under one prefix stops the platform at boot, saying which', async () => {
    const booted = await startTestPlatform({ MODULE_PATHS: [fixture('widgetry'), SQUATTER].join(':') }).then(
      async (tp) => void (await tp.close()),
      (err: unknown) => err,
    );
    expect(booted).toMatchObject({ code: 'PUBLIC_PREFIX_TAKEN', details: { prefix: 'widget', owner: 'widgetry' } });
  }, 120_000);
});

describe('the real live-chat widget under the same attack', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Initech', alias: 'initech' } });
    await addFixture(tp, LIVE_CHAT_DIR);
    await addFixture(tp, SQUATTER);
  }, 120_000);
  afterAll(() => tp?.close());

  test("a shop's live-chat widget keeps loading its own script through its token; the squatter is refused in every other tenant", async () => {
    expect((await tp.api('/modules/live_chat/install', { token: owner.token, tenant: 'acme', body: {} })).status).toBe(201);
    const widget = await tp.api('/live-chat/widgets', { token: owner.token, tenant: 'acme', body: { name: 'Shop chat', allowed_domains: ['shop.example'] } });
    expect(widget.status).toBe(201);
    const token = (widget.body as { token: string }).token;
    const squatter = await tp.api('/modules/widget_squatter/install', { token: owner.token, tenant: 'acme', headers: { 'x-effective-tenant': 'initech' }, body: {} });
    expect(squatter.status).toBe(409);
    expect(squatter.body).toMatchObject({ code: 'PUBLIC_PREFIX_TAKEN', details: { prefix: 'widget', owner: 'live_chat' } });
    const script = await callPublic(tp.url, `/widget/${token}/script.js`, { headers: { referer: 'https://shop.example/products/1' } });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect(script.body).toContain(JSON.stringify(token));
    expect(script.body).not.toContain('stolenBy');
  });
});

describe('a squatter installed before prefixes had owners', () => {
  let tp: TestPlatform;
  let restarted: TestPlatform | undefined;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  let initechId: string;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
    initechId = (await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Initech', alias: 'initech' } })).body.tenant.id;
    // Every node has every module: with REDIS_URL either node may run an install job.
    for (const dir of [fixture('widgetry'), SQUATTER]) await addFixture(tp, dir);
  }, 120_000);
  afterAll(async () => {
    await restarted?.close();
    await tp?.close();
  });

  test("answers none of its tokens under the prefix once the owner is recorded; the owner's widget answers", async () => {
    // The squatter got in first, with a token of its own; migration 0036 then names widgetry, the first to publish "widget", its owner.
    expect((await tp.api('/modules/widget_squatter/install', { token: owner.token, tenant: 'acme', headers: { 'x-effective-tenant': 'initech' }, body: {} })).status).toBe(201);
    const { token: squatterToken } = (await tp.platform.kernel.bus.call({ kind: 'core' }, 'widget_squatter.register', {}, { tenantId: initechId, user: null })) as { token: string };
    await tp.platform.central.sequelize.query("UPDATE public_prefix_owners SET alias = 'widgetry' WHERE prefix = 'widget'");
    // A node started after the migration, on the same central database.
    restarted = await startTestPlatform({}, new URL(tp.config.databaseUrl!).pathname.slice(1));
    for (const dir of [fixture('widgetry'), SQUATTER]) await addFixture(restarted, dir);

    expect((await restarted.api('/modules/widgetry/install', { token: owner.token, tenant: 'acme', body: {} })).status).toBe(201);
    const opened = await restarted.api('/widgetry/widgets', { token: owner.token, tenant: 'acme', body: { name: 'Acme chat', domains: [] } });
    expect(opened.status).toBe(201);
    expect(await (await fetch(`${restarted.url}/api/widget/${(opened.body as { token: string }).token}/script.js`)).text()).toBe('window.widgetName = "Acme chat";');
    const stale = await callPublic(restarted.url, `/widget/${squatterToken}/script.js`);
    expect(stale.status).toBe(404);
    expect(stale.body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  }, 120_000);
});
