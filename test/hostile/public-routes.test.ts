/**
 * Attacks on public module routes (spec 2: /api/widget/{token}/..., /api/webhooks/workflows/{token};
 * core/kernel/modules/public-routes.ts, core/kernel/modules/public-tokens.ts), each against the real platform with
 * the modules running in the sandbox:
 *  - cross-tenant: a module naming another tenant when registering, to receive that tenant's
 *    visitors (a token of its choosing is refused outright: public-prefix-takeover.test.ts);
 *  - cross-module: a module without public routes registering tokens, or one with its own prefix
 *    handing in another module's token, to receive requests under that module's prefix;
 *  - ambiguity: a path whose token-shaped segments name two registrations is refused, not answered
 *    by one of them;
 *  - header switching: X-Tenant, X-Effective-Tenant, the subdomain, even a super admin's bearer token,
 *    never move a public request out of its token's tenant;
 *  - leaks: tokens never reach the request log;
 *  - exhaustion: a flood of token registrations (PUBLIC_TOKEN_LIMIT per tenant and module, also when
 *    concurrent), and token guessing, answered by one indistinguishable 404 and then 429
 *    (PUBLIC_MISS_RATE_LIMIT per address).
 */
import path from 'node:path';
import pino from 'pino';
import { addFixture, callPublic, newToken, widgetPlatform, type WidgetPlatform } from '../public-routes/support';

const TOKEN_LIMIT = 4;
const MISS_BUDGET = 40;

let w: WidgetPlatform;
const logLines: string[] = [];
let acmeToken: string;
let globexToken: string;

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  w = await widgetPlatform({ PUBLIC_TOKEN_LIMIT: String(TOKEN_LIMIT), PUBLIC_MISS_RATE_LIMIT: `${MISS_BUDGET}/60` }, logger);
  for (const name of ['token-thief', 'prefixless']) await addFixture(w.tp, path.join(__dirname, 'fixtures', name));
  for (const alias of ['token_thief', 'prefixless']) {
    const res = await w.tp.api(`/modules/${alias}/install`, { token: w.owner.token, tenant: 'acme', body: {} });
    if (res.status !== 201) throw new Error(`install ${alias}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  acmeToken = await w.openWidget('acme', 'Acme chat', ['https://shop.acme.example']);
  globexToken = await w.openWidget('globex', 'Globex chat');
}, 120_000);
afterAll(() => w.tp.close());

const call = (p: string, init?: Parameters<typeof callPublic>[2]) => callPublic(w.tp.url, p, init);
const configOf = async (token: string) => (await call(`/widget/${token}/config`)).body as { name: string; tenant: string };

describe('hostile: cross-tenant token registration', () => {
  test('a module cannot name another tenant: the input allows only a label', async () => {
    const res = await w.asOwner('/widgetry/raw-tokens', { label: 'mine', tenant_id: w.globexId });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['tenant_id']);
  });
});

describe("hostile: tokens under another module's prefix", () => {
  test('a module without public routes may not register tokens at all', async () => {
    const res = await w.asOwner('/prefixless/tokens', {});
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Module "prefixless" declares no public routes: add http.public {prefix, routes} to its module.json before registering tokens.');
  });

  test("a module handing in another module's token opens nothing: /api/widget still reaches widgetry in the token's tenant", async () => {
    const res = await w.asOwner('/thief/tokens', { token: globexToken });
    expect(res.status).toBe(422);
    expect(await configOf(globexToken)).toMatchObject({ name: 'Globex chat', tenant: w.globexId });
    expect((await call(`/thief/${globexToken}/peek`)).status).toBe(404);
  });

  test('a token another module registered does not open /api/widget', async () => {
    const res = await w.asOwner('/thief/tokens', {});
    expect(res.status).toBe(201);
    expect((await call(`/thief/${res.body.token}/peek`)).body).toEqual({ stolen_from: w.owner.tenantId });
    expect((await call(`/widget/${res.body.token}/config`)).status).toBe(404);
  });
});

describe('hostile: a path carrying two registrations', () => {
  test('is refused with the one 404, never answered through whichever registration the lookup returns first', async () => {
    const first = (await w.asOwner('/thief/tokens', {})).body.token as string;
    const second = (await w.asOwner('/thief/tokens', {})).body.token as string;
    expect((await call(`/thief/${first}/peek`)).status).toBe(200);
    const res = await call(`/thief/${first}/pair/${second}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});

describe('hostile: header-based tenant switching on public routes', () => {
  test("X-Tenant, X-Effective-Tenant, a tenant subdomain and a super admin's bearer token are all ignored", async () => {
    const res = await call(`/widget/${acmeToken}/config`, {
      headers: { 'x-tenant': 'globex', 'x-effective-tenant': 'globex', host: 'globex.mandi.test', authorization: `Bearer ${w.owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Acme chat', tenant: w.owner.tenantId, user: null, caller: 'http' });
    const other = await call(`/widget/${globexToken}/config`, { headers: { 'x-tenant': 'acme', host: 'acme.mandi.test' } });
    expect(other.body).toMatchObject({ name: 'Globex chat', tenant: w.globexId });
  });
});

describe('hostile: token leaks', () => {
  test('the request log shows a public route with its token masked, for hits and misses alike', async () => {
    const missed = newToken();
    await call(`/widget/${acmeToken}/config?ref=${acmeToken}`);
    await call(`/widget/${missed}/config`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const requests = logLines.filter((l) => l.includes('"msg":"request"') && l.includes('/api/widget/'));
    expect(requests.map((l) => JSON.parse(l).url)).toEqual(expect.arrayContaining(['/api/widget/:token/config?ref=:token', '/api/widget/:token/config']));
    expect(logLines.filter((l) => l.includes(acmeToken) || l.includes(missed))).toEqual([]);
  });
});

describe('hostile: exhaustion', () => {
  test(`a tenant holds at most ${TOKEN_LIMIT} tokens per module, also when registrations race; revoking frees a place`, async () => {
    // Globex holds one already (its widget); six more arrive at once.
    const answers = await Promise.all(Array.from({ length: 6 }, () => w.asOwner('/widgetry/raw-tokens', {}, 'globex')));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 201, 201, 422, 422, 422]);
    const refused = answers.find((a) => a.status === 422)!;
    expect(refused.body).toMatchObject({ code: 'PUBLIC_TOKEN_LIMIT', details: { limit: TOKEN_LIMIT } });
    expect(refused.body.message).toMatch(/revoke unused ones first/);
    // The other tenant's budget is its own.
    expect((await w.asOwner('/widgetry/raw-tokens', {})).status).toBe(201);
    const accepted = answers.filter((a) => a.status === 201).map((a) => a.body.token as string);
    expect((await w.asOwner('/widgetry/widgets/close', { token: accepted[0] }, 'globex')).body).toEqual({ revoked: true });
    expect((await w.asOwner('/widgetry/raw-tokens', {}, 'globex')).status).toBe(201);
  });

  test('token guessing: every miss is the same 404 whatever the reason, in about the same time; then the address gets 429', async () => {
    const revoked = await w.openWidget('acme', 'Revoked');
    await w.asOwner('/widgetry/widgets/close', { token: revoked });
    const thiefOnly = (await w.asOwner('/thief/tokens', {})).body.token as string;
    const kinds = { unknown: () => newToken(), revoked: () => revoked, other_module: () => thiefOnly };
    const timings: Record<string, number[]> = {};
    const shapes = new Set<string>();
    for (let round = 0; round < 10; round++) {
      for (const [kind, token] of Object.entries(kinds)) {
        const started = performance.now();
        const res = await call(`/widget/${token()}/config`);
        (timings[kind] ??= []).push(performance.now() - started);
        const headers = [...res.headers.keys()].filter((h) => !['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset'].includes(h)).sort();
        shapes.add(JSON.stringify({ status: res.status, body: res.body, headers }));
      }
    }
    expect(shapes.size).toBe(1);
    expect(JSON.parse([...shapes][0]!)).toMatchObject({ status: 404, body: { code: 'ROUTE_NOT_FOUND' } });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const medians = Object.values(timings).map(median);
    // A lookup by hash, then the same answer: no reason may take noticeably longer than another.
    expect(Math.max(...medians) - Math.min(...medians)).toBeLessThan(25);

    // 30 misses spent above; the rest of the budget, then 429 with Retry-After.
    let res = await call(`/widget/${newToken()}/config`);
    for (let i = 0; i < MISS_BUDGET && res.status === 404; i++) res = await call(`/widget/${newToken()}/config`);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(res.headers.get('x-ratelimit-limit')).toBe(String(MISS_BUDGET));
    // A visitor with a real token is not held up by the guesser's misses.
    expect((await call(`/widget/${acmeToken}/config`)).status).toBe(200);
  });
});
