/**
 * The request log holds no secret of a URL (DESIGN Conventions: logs are pino JSON; invitation
 * links, spec 1 Email verification, spec 2 Public webhook trigger, modules' public routes): whoever
 * reads the log must not be able to accept an invitation, verify an address, fire a workflow webhook
 * or call a tenant's public route. Real requests against a real platform whose pino lines are captured: every token in a
 * path, and every query parameter named like a secret, is masked in every line; the rest of the path
 * stays as it was, so the line still says which route was called.
 */
import { randomBytes } from 'node:crypto';
import { createLogger } from '../../core/kernel/logger';
import { httpRequest, startTestPlatform, type TestPlatform } from '../support/test-platform';

const lines: string[] = [];
let tp: TestPlatform;
let owner: Awaited<ReturnType<TestPlatform['install']>>;

beforeAll(async () => {
  tp = await startTestPlatform({}, undefined, createLogger('info', { destination: { write: (line: string) => void lines.push(line) } }));
  owner = await tp.install('acme');
}, 120_000);
afterAll(() => tp?.close());

const get = (path: string, headers: Record<string, string> = {}) => httpRequest(`${tp.url}${path}`, 'GET', headers);
const post = (path: string, body: unknown = {}) => httpRequest(`${tp.url}${path}`, 'POST', { 'content-type': 'application/json' }, JSON.stringify(body));

/** The URLs of the request lines logged so far. */
const loggedUrls = () =>
  lines
    .map((l) => JSON.parse(l) as { msg?: string; url?: string })
    .filter((l) => l.msg === 'request')
    .map((l) => l.url!);

/** Every secret, and its URL-encoded form, is absent from every line. */
function expectNowhere(secrets: string[]): void {
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      expect(lines.filter((l) => l.includes(form))).toEqual([]);
    }
  }
}

async function invite(email: string): Promise<string> {
  const before = (await tp.mails()).length;
  const res = await tp.api('/members', { token: owner.token, tenant: 'acme', body: { email, name: 'Invited' } });
  expect(res.status).toBe(201);
  for (let tries = 0; tries < 400; tries++) {
    const mail = (await tp.mails()).slice(before).find((m) => [m.to].flat().includes(email));
    const link = mail && /\/invitations\/([A-Za-z0-9_-]{43})\b/.exec(mail.text);
    if (link) return link[1]!;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no invitation reached ${email}`);
}

describe('DESIGN Conventions (hostile): no token of a URL reaches the request log', () => {
  test('invitation links: looking, declining, accepting, and a mistyped token', async () => {
    const declined = await invite('declines@acme.example');
    const accepted = await invite('accepts@acme.example');
    expect((await get(`/api/v1/invitations/${declined}`)).status).toBe(200);
    expect((await post(`/api/v1/invitations/${declined}/decline`)).status).toBe(200);
    const password = 'invited-password-1';
    expect((await post(`/api/v1/invitations/${accepted}/accept`, { name: 'Accepts', password, password_confirmation: password })).status).toBe(201);
    // One character off is nearly the secret still; the path names the position, whatever is in it.
    const mistyped = accepted.slice(0, 19);
    expect((await get(`/API/V1/Invitations/${mistyped}`)).status).toBe(422);

    expectNowhere([declined, accepted, mistyped]);
    const urls = loggedUrls();
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/v1/invitations/:token',
        '/api/v1/invitations/:token/decline',
        '/api/v1/invitations/:token/accept',
        '/API/V1/Invitations/:token',
      ]),
    );
  });

  test('email verification links, in the mailed form and under /api/v1', async () => {
    const email = 'verifies@acme.example';
    const token = await invite(email);
    const password = 'verifier-password-1';
    expect((await post(`/api/v1/invitations/${token}/accept`, { name: 'Verifies', password, password_confirmation: password })).status).toBe(201);
    let link: RegExpExecArray | null = null;
    for (let tries = 0; tries < 400 && !link; tries++) {
      const mail = (await tp.mails()).find((m) => [m.to].flat().includes(email) && /email\/verify/.test(m.text));
      link = mail ? /\/email\/verify\/(\d+)\/([0-9a-f]{40})\?tenant=([\w-]+)/.exec(mail.text) : null;
      if (!link) await new Promise((r) => setTimeout(r, 25));
    }
    const [, id, hash, tenant] = link!;
    expect((await get(`/api/v1/email/verify/${id}/${hash}?tenant=${tenant}`)).status).toBe(200);
    expect((await get(`/email/verify/${id}/${hash}?tenant=${tenant}`)).status).toBe(200);
    // The earlier form carried its proof in the query.
    const signature = randomBytes(32).toString('hex');
    expect((await get(`/email/verify/${id}/${'a'.repeat(40)}?tenant=${tenant}&expires=1&signature=${signature}`)).status).toBe(422);

    expectNowhere([hash, token, signature]);
    expect(loggedUrls()).toEqual(
      expect.arrayContaining([`/api/v1/email/verify/${id}/:token?tenant=${tenant}`, `/email/verify/${id}/:token?tenant=${tenant}`, `/email/verify/${id}/:token?tenant=${tenant}&expires=1&signature=:token`]),
    );
  });

  test('workflow webhooks and modules\' public routes: the token in the path', async () => {
    const webhook = randomBytes(24).toString('hex');
    const widget = randomBytes(24).toString('base64url');
    await post(`/api/webhooks/workflows/${webhook}`, { event: 'x', data: {} });
    await get(`/api/widget/${widget}/conversations/12`);

    expectNowhere([webhook, widget]);
    expect(loggedUrls()).toEqual(expect.arrayContaining(['/api/webhooks/workflows/:token', '/api/widget/:token/conversations/12']));
  });

  test('any token-shaped path segment, and query parameters named like secrets, wherever they are', async () => {
    const reset = randomBytes(32).toString('base64url');
    const access = owner.token;
    const code = '482913';
    await get(`/api/v1/auth/reset-password/${reset}`);
    await get(`/api/v1/auth/me?token=${access}&code=${code}&page=2&api_key=k-123`, { 'x-tenant': 'acme' });

    expectNowhere([reset, access, 'k-123']);
    expect(loggedUrls()).toEqual(expect.arrayContaining(['/api/v1/auth/reset-password/:token', '/api/v1/auth/me?token=:token&code=:token&page=2&api_key=:token']));
  });
});
