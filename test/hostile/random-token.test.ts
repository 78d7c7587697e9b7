/**
 * platform.random_token (a public core operation: module code has no secure random source, and ids a
 * visitor must not guess, such as spec 2's Visitor.session_id, come from the host's): a module asking
 * for huge or tiny amounts is refused, and every answer is fresh, so one module cannot learn or
 * replay what another was given.
 */
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const INTRUDER = path.join(__dirname, 'fixtures/modules/rt-intruder');

let tp: TestPlatform;
let tenantId: string;
beforeAll(async () => {
  tp = await startTestPlatform({ MODULE_PATHS: INTRUDER });
  const owner = await tp.install('acme');
  tenantId = owner.tenantId;
  const res = await tp.api('/modules/rt_intruder/install', { token: owner.token, tenant: 'acme', body: {} });
  if (res.status !== 201) throw new Error(`install rt_intruder: ${JSON.stringify(res.body)}`);
}, 240_000);
afterAll(() => tp?.close());

/** rt_intruder calls a host operation with exactly this input, from its sandbox. */
const asModule = (input: unknown) =>
  tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, 'rt_intruder.raw', { op: 'platform.random_token', input }, { tenantId, user: null }) as Promise<{ token: string }>;

describe('platform.random_token (hostile): bounded, fresh, unguessable', () => {
  test('sizes outside 16-64 bytes and unknown fields are refused with 422', async () => {
    for (const input of [{ bytes: 1_000_000_000 }, { bytes: 65 }, { bytes: 15 }, { bytes: -1 }, { bytes: 'all' }, { seed: 'fixed' }]) {
      await expect(asModule(input)).rejects.toMatchObject({ status: 422 });
    }
  });

  test('every call answers a new token of the asked size, from the whole base64url alphabet', async () => {
    const tokens = await Promise.all(Array.from({ length: 200 }, () => asModule({})));
    expect(new Set(tokens.map((t) => t.token)).size).toBe(200);
    for (const { token } of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await asModule({ bytes: 64 })).token).toMatch(/^[A-Za-z0-9_-]{86}$/);
  });
});
