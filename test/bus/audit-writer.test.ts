/**
 * The bus's batched audit (DESIGN.md, Bus: "audit record (batched)"), against the real central
 * database: column buffers become rows exactly, batches split at the batch size, and a buffer past
 * its cap drops and counts instead of growing.
 */
import { AuditWriter } from '../../core/kernel/bus/audit-writer';
import { createLogger } from '../../core/kernel/logger';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

describe('DESIGN Bus: audit records are batched and written exactly', () => {
  let tp: TestPlatform;
  const rowsOf = async (action: string) =>
    (await tp.platform.central.models.AuditEntry.findAll({ where: { action }, order: [['id', 'ASC']] })).map((r) => r.get({ plain: true }) as Record<string, unknown>);

  beforeAll(async () => {
    tp = await startTestPlatform();
  }, 120_000);
  afterAll(() => tp.close());

  test('every field survives the trip, including nulls, quotes and the timestamp to the millisecond', async () => {
    const writer = new AuditWriter(tp.platform.central, createLogger('silent'));
    const at = new Date('2026-03-04T05:06:07.089Z');
    writer.write({ tenant_id: 'abcd1234', actor_type: 'user', actor_id: '42', action: 'audit.test.fields', target: 'edge:http', status: 'ok', details: { duration_ms: 1.5, note: 'a "quoted" \\ value, {braces}' }, created_at: at });
    writer.write({ tenant_id: null, actor_type: 'system', actor_id: null, action: 'audit.test.fields', status: 'error', created_at: at });
    await writer.close();
    const rows = await rowsOf('audit.test.fields');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ tenant_id: 'abcd1234', actor_type: 'user', actor_id: '42', target: 'edge:http', status: 'ok', details: { duration_ms: 1.5, note: 'a "quoted" \\ value, {braces}' } });
    expect((rows[0].created_at as Date).toISOString()).toBe(at.toISOString());
    expect(rows[1]).toMatchObject({ tenant_id: null, actor_id: null, target: null, status: 'error', details: null });
  });

  test('a flush writes everything buffered, in batches of the batch size', async () => {
    const writer = new AuditWriter(tp.platform.central, createLogger('silent'), 3);
    for (let i = 0; i < 8; i++) {
      writer.write({ tenant_id: 't', actor_type: 'system', actor_id: String(i), action: 'audit.test.batches', status: 'ok', created_at: new Date() });
    }
    await writer.close();
    expect((await rowsOf('audit.test.batches')).map((r) => r.actor_id)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7']);
  });

  test('past the cap, records are dropped and counted, not buffered', async () => {
    const logged: unknown[] = [];
    const logger = createLogger('silent');
    logger.warn = ((obj: unknown) => void logged.push(obj)) as typeof logger.warn;
    const writer = new AuditWriter(tp.platform.central, logger, 100, 5);
    for (let i = 0; i < 7; i++) {
      writer.write({ tenant_id: 't', actor_type: 'system', actor_id: String(i), action: 'audit.test.cap', status: 'ok', created_at: new Date() });
    }
    await writer.close();
    expect(await rowsOf('audit.test.cap')).toHaveLength(5);
    expect(logged).toEqual([{ dropped: 2 }]);
  });
});
