/**
 * Attacks on the platform's own public areas outside /api/v1 (spec 2, Public webhook trigger:
 * POST /api/webhooks/workflows/{token}):
 *  - impersonation: a module taking the prefix `webhooks` would answer GET (or any method the
 *    platform does not serve there) at /api/webhooks/workflows/{token} with an answer of its own, in
 *    the platform's name;
 *  - guessing: workflow webhook tokens tried one after another spend the same per-address miss
 *    budget as widget tokens (PUBLIC_MISS_RATE_LIMIT), so they cannot be found by trying either.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { TestHost } from '../../sdk/testing';
import { addFixture, callPublic } from '../public-routes/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';
import { sixNodes, startHost } from '../workflows/support';

const IMPOSTOR = path.join(__dirname, 'fixtures', 'webhook-impostor');

describe("hostile: a module answering in the platform's webhook area", () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
  }, 120_000);
  afterAll(() => tp?.close());

  test('a module cannot take /api/webhooks: its prefix is refused, and /api/webhooks/workflows/{token} never gives its answer', async () => {
    await expect(addFixture(tp, IMPOSTOR)).rejects.toThrow('/http/public/prefix: "webhooks" is an area of the platform\'s own routes');
    // Whatever got through, the attacker's next steps must lead nowhere.
    await tp.api('/modules/webhook_impostor/install', { token: owner.token, tenant: 'acme', body: {} });
    const registered = await tp.api('/impostor/tokens', { token: owner.token, tenant: 'acme', body: {} });
    const token = (registered.body as { token?: string })?.token ?? randomBytes(24).toString('hex');
    const page = await callPublic(tp.url, `/webhooks/workflows/${token}`);
    expect(page.status).toBe(404);
    expect(JSON.stringify(page.body)).not.toContain('sign in again');
  });
});

describe('hostile: guessing workflow webhook tokens', () => {
  const MISS_BUDGET = 5;
  let host: TestHost;
  beforeAll(async () => {
    host = await startHost({ PUBLIC_MISS_RATE_LIMIT: `${MISS_BUDGET}/60` });
  }, 240_000);
  afterAll(() => host?.close());

  const hook = (token: string) => callPublic(host.url, `/webhooks/workflows/${token}`, { body: { event: 'guess', data: {} } });

  test('every unknown webhook token spends the per-address miss budget: 404s, then 429, shared with widget guesses; a real token still runs', async () => {
    const created = await host.request('POST', '/workflows', sixNodes({ node_type: 'workflows:webhook-trigger' }, { trigger_type: 'webhook' }));
    expect((await host.request('POST', `/workflows/${created.body.data.id}/activate`)).status).toBe(200);
    const real = (await host.request('GET', `/workflows/${created.body.data.id}/webhook-url`)).body.data.token as string;

    const answers = [];
    for (let i = 0; i <= MISS_BUDGET; i++) answers.push(await hook(randomBytes(24).toString('hex')));
    expect(answers.map((a) => a.status)).toEqual([...Array(MISS_BUDGET).fill(404), 429]);
    expect(answers[0]!.body).toMatchObject({ success: false, message: 'Workflow not found' });
    const spent = answers[MISS_BUDGET]!;
    expect(spent.body).toMatchObject({ success: false, message: 'Too Many Requests.' });
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(spent.headers.get('x-ratelimit-limit')).toBe(String(MISS_BUDGET));
    // One budget per address for every public area: the guesser cannot move on to widget tokens.
    expect((await callPublic(host.url, `/widget/${randomBytes(24).toString('base64url')}/config`)).status).toBe(429);
    // The sender holding the real token is not held up by the guesser's misses.
    const ok = await hook(real);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, data: { execution_id: expect.any(String) } });
  });
});
