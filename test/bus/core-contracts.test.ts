/**
 * Core operations' contracts (sdk/contracts/platform) keep refusing what their hand-written JSON
 * schemas refused: the bus validates every call by them (DESIGN.md, Bus), checked here with the
 * bus's own validators, and their JSON carries nothing TypeBox-specific.
 */
import { SchemaValidators } from '../../core/kernel/bus/schema-validators';
import { jobsEnqueue, mailSend, notificationsSend, platformHmac, realtimeGrantVisitor, SECRET_NAME_PATTERN, secretsHint, secretsSet, workflowEngineFireSchedules } from '../../sdk/contracts/platform';
import { manifestSchema } from '../../sdk/manifest';

const validators = new SchemaValidators();
const refuses = (schema: object, value: unknown) => validators.validate(schema, value) !== undefined;

describe('core contracts validate as their hand schemas did', () => {
  test('mail.send: one address, a one-line subject, nothing else', () => {
    const ok = { to: 'a@b.co', subject: 'Hi', text: 'Body' };
    expect(refuses(mailSend.input, ok)).toBe(false);
    expect(refuses(mailSend.input, { ...ok, to: 'a@b.co, c@d.co' })).toBe(true);
    expect(refuses(mailSend.input, { ...ok, subject: 'Hi\r\nBcc: x@y.z' })).toBe(true);
    expect(refuses(mailSend.input, { ...ok, cc: 'c@d.co' })).toBe(true);
    expect(refuses(mailSend.input, { to: 'a@b.co', subject: 'Hi' })).toBe(true);
  });

  test('notifications.send: bounded recipient lists, a known severity, nullable texts', () => {
    const ok = { type: 'orders.paid', title: 'Paid', user_id: 1 };
    expect(refuses(notificationsSend.input, { ...ok, body: null, severity: 'warning', data: { any: ['json'] } })).toBe(false);
    expect(refuses(notificationsSend.input, { ...ok, user_id: 0 })).toBe(true);
    expect(refuses(notificationsSend.input, { type: 'x', title: 'T', user_ids: [] })).toBe(true);
    expect(refuses(notificationsSend.input, { type: 'x', title: 'T', user_ids: Array.from({ length: 1001 }, (_, i) => i + 1) })).toBe(true);
    expect(refuses(notificationsSend.input, { ...ok, severity: 'fatal' })).toBe(true);
    expect(refuses(notificationsSend.input, { ...ok, type: 'has space' })).toBe(true);
    expect(refuses(notificationsSend.input, { title: 'T', user_id: 1 })).toBe(true);
  });

  test('secrets: declared-name pattern, bounded values, a hint or null', () => {
    expect(SECRET_NAME_PATTERN).toBe(manifestSchema.definitions.secret.properties.name.pattern);
    expect(refuses(secretsSet.input, { name: 'api_key', value: 'k' })).toBe(false);
    expect(refuses(secretsSet.input, { name: 'Api-Key', value: 'k' })).toBe(true);
    expect(refuses(secretsSet.input, { name: 'api_key', value: '' })).toBe(true);
    expect(refuses(secretsSet.input, { name: 'api_key', value: 'x'.repeat(64 * 1024 + 1) })).toBe(true);
    expect(refuses(secretsHint.output!, { secret: null })).toBe(false);
    expect(refuses(secretsHint.output!, { secret: { name: 'api_key', hint: null } })).toBe(true);
  });

  test('jobs, hmac, realtime, schedules: formats, enums, minimums and open objects as before', () => {
    expect(refuses(jobsEnqueue.input, { job: 'sweep', run_at: '2026-12-01T00:00:00Z', data: [1] })).toBe(false);
    expect(refuses(jobsEnqueue.input, { job: 'sweep', run_at: 'tomorrow' })).toBe(true);
    expect(refuses(jobsEnqueue.input, { job: 'sweep', delay_seconds: -1 })).toBe(true);
    expect(refuses(platformHmac.input, { key: 'k', message: 'm', algorithm: 'md5' })).toBe(true);
    expect(refuses(realtimeGrantVisitor.input, { visitor_id: 'v-1', channels: ['chat.a', 'chat.a'] })).toBe(true);
    expect(refuses(realtimeGrantVisitor.input, { visitor_id: 'v-1', channels: ['chat.a'], ttl_seconds: 86_401 })).toBe(true);
    // The one open input: the scheduler may send more than the slot.
    expect(refuses(workflowEngineFireSchedules.input, { scheduled_at: '2026-12-01T00:00:00Z', extra: 1 })).toBe(false);
  });

  test('their JSON is the hand schema it replaced', () => {
    expect(JSON.parse(JSON.stringify(secretsHint.output))).toEqual({
      type: 'object',
      required: ['secret'],
      properties: {
        secret: {
          anyOf: [
            { type: 'object', required: ['name', 'hint', 'set_at'], properties: { name: { type: 'string' }, hint: { type: ['string', 'null'] }, set_at: { type: 'string' } } },
            { type: 'null' },
          ],
        },
      },
    });
  });
});
