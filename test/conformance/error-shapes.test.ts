/**
 * DESIGN.md, Conventions: error bodies follow the shape of the spec area, also for a body that
 * cannot be read, and no error carries an internal field. Checked over HTTP on a real platform
 * with the reseller_finance module installed: a reseller route (spec 3, Errors {error, code,
 * details}), a workflows route (spec 2, Errors {success: false, message, errors?}), a validation
 * area (spec 1, Errors {message, errors}), and GraphQL.
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';

let host: TestHost;
beforeAll(async () => {
  host = await createTestHost({ modulePath: path.resolve(__dirname, '../../modules/reseller-finance') });
}, 120_000);
afterAll(() => host?.close());

const MALFORMED = 'The request body is not valid JSON.';

/** A request with a body sent exactly as given. */
async function send(method: string, p: string, body: string) {
  const res = await fetch(`${host.url}/api/v1${p}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('DESIGN Conventions: a malformed JSON body answers 400 in the shape of the area of its route', () => {
  test('spec 3 Errors: a reseller route answers {error, code, details}', async () => {
    const res = await send('POST', '/finance/settlements/remittances/bulk-process', '{"remittance_ids": [');
    expect(res).toEqual({ status: 400, body: { error: MALFORMED, code: 'MALFORMED_JSON', details: { errors: { request: [MALFORMED] } } } });
  });

  test('spec 2 Errors: a workflows route answers {success: false, message, errors}', async () => {
    const res = await send('POST', '/workflows', '{"name": ');
    expect(res).toEqual({ status: 400, body: { success: false, message: 'Invalid request', code: 'MALFORMED_JSON', errors: { request: [MALFORMED] } } });
  });

  test('spec 1 Errors: a validation area answers {message, errors}', async () => {
    const res = await send('PATCH', '/profile', '{"name": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: MALFORMED, code: 'MALFORMED_JSON', errors: { request: [MALFORMED] } });
  });

  test('a malformed body on a path no route serves is still the 404 of an unknown route', async () => {
    const res = await send('POST', '/finance/no-such-route', '{');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});

describe('DESIGN Conventions: no internal field (status, stack) in any error details', () => {
  test("spec 3 Errors: a module's UNAUTHORIZED_CONTEXT has details {target_tenant} only", async () => {
    const res = await send('PUT', '/finance/sub-resellers/stranger/credit-limit', JSON.stringify({ credit_limit: '10.00' }));
    expect(res).toEqual({ status: 403, body: { error: expect.any(String), code: 'UNAUTHORIZED_CONTEXT', details: { target_tenant: 'stranger' } } });
  });

  test('spec 1 GraphQL: the same error as a field error has extensions {code, target_tenant} only', async () => {
    const query = 'mutation { reseller_finance_set_credit_limit(input: {tenant_id: "stranger", credit_limit: "10.00"}) }';
    const res = await send('POST', '/graphql', JSON.stringify({ query }));
    const [error] = res.body.errors as Array<{ extensions: Record<string, unknown> }>;
    expect(error.extensions).toEqual({ code: 'UNAUTHORIZED_CONTEXT', target_tenant: 'stranger' });
  });
});
