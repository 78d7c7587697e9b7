/**
 * The public core operation `mail.send` (issue 9 item 5: the email channel of notification rules)
 * against a real SMTP server on 127.0.0.1: delivery, validation, the edge permission and the bus
 * rate limit.
 */
import { startSmtpSink, type SmtpSink } from '../../sdk/testing/smtp-sink';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

let tp: TestPlatform;
let smtp: SmtpSink;
let tenantId: string;

beforeAll(async () => {
  smtp = await startSmtpSink();
  tp = await startTestPlatform({ SMTP_URL: smtp.url, BUS_RATE_LIMIT: '4/60' });
  tenantId = (await tp.install('acme')).tenantId;
}, 60_000);
afterAll(async () => {
  await tp?.close();
  await smtp?.close();
});

const asModule = (alias: string, input: unknown) => tp.platform.kernel.bus.call({ kind: 'module', alias }, 'mail.send', input, { tenantId, user: null });
const asEdge = (permissions: string[], input: unknown) =>
  tp.platform.kernel.bus.call({ kind: 'edge', via: 'graphql' }, 'mail.send', input, { tenantId, user: { id: 99, email: 'm@acme.example', name: 'M', isSuperAdmin: false }, permissions: new Set(permissions) });

describe('spec 3 notification rules, email channel: mail.send', () => {
  it('queues the mail through the platform transport; any module may call it without api.consumes', async () => {
    await expect(asModule('orders', { to: 'buyer@example.in', subject: 'Order ORD-1 shipped', text: 'Hello <Asha>,\nit is on its way.' })).resolves.toEqual({ queued: true, id: expect.any(String) });
    const mail = await smtp.waitFor((m) => m.to.includes('buyer@example.in'));
    expect(mail.subject).toBe('Order ORD-1 shipped');
    expect(mail.from).toMatch(/^no-reply@/);
    expect(mail.text.replace(/\r\n/g, '\n').trim()).toBe('Hello <Asha>,\nit is on its way.');
    expect(mail.html).toContain('Hello &#60;Asha&#62;,<br>');
  });

  it('refuses several addresses, header injection in the subject and missing fields (422)', async () => {
    // One caller per input: this platform's bus allows 4 calls per caller and minute.
    for (const [i, input] of [
      { to: 'a@example.in, b@example.in', subject: 's', text: 't' },
      { to: 'Someone <a@example.in>', subject: 's', text: 't' },
      { to: 'a@example.in', subject: 'x\r\nBcc: everyone@example.in', text: 't' },
      { to: 'a@example.in', subject: 's' },
      { to: 'a@example.in', subject: 's', text: 't', bcc: 'b@example.in' },
    ].entries()) await expect(asModule(`validation_${i}`, input)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', status: 422 });
  });

  it('needs the permission mail.send for edge callers acting for a user', async () => {
    const input = { to: 'edge@example.in', subject: 'Edge', text: 'From an edge' };
    await expect(asEdge(['orders.view'], input)).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
    await expect(asEdge(['mail.send'], input)).resolves.toMatchObject({ queued: true });
  });

  it('is rate limited per (tenant, caller, operation) like every bus call', async () => {
    const input = { to: 'limit@example.in', subject: 'Limit', text: 'x' };
    for (let i = 0; i < 4; i++) await asModule('chatty', input);
    await expect(asModule('chatty', input)).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    // Another caller has its own budget.
    await expect(asModule('quiet', input)).resolves.toMatchObject({ queued: true });
  });
});
