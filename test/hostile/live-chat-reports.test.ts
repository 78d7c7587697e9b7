/**
 * Live chat reports (beyond spec 2, modules/live-chat/README: Reports) against hostile callers:
 * another tenant's conversations never count here (each tenant's database is its own), a member
 * without `live_chat.reports` reads nothing, and a period too large to sum in one call (more than
 * 50,000 conversations, or more than 731 days) is refused with 422 rather than exhausting the
 * module's memory and time.
 */
import type { TestHost } from '../../sdk/testing';
import { addAgent, createWidget, requestAs, startHost, visitor, type Reply } from '../../modules/live-chat/test/support';

let host: TestHost;
let other: string;
let rivalToken: string;
beforeAll(async () => {
  host = await startHost();
  const made = await host.request('POST', '/admin/tenants', { name: 'Rival', alias: 'rival-reports' });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  other = made.body.tenant.id;
  await host.installModule('live_chat', { tenant: other });
  rivalToken = (await host.addMember({ email: 'rita@rival-reports.example', role: 'admin', name: 'Rita Rival' }, other)).token;
}, 180_000);
afterAll(async () => {
  await host?.close();
});

const inRival = async (p: string): Promise<Pick<Reply, 'status' | 'body'>> => {
  const res = await fetch(`${host.url}/api/v1${p}`, { headers: { authorization: `Bearer ${rivalToken}`, 'x-tenant': other } });
  return { status: res.status, body: await res.json() };
};

describe('live chat reports (hostile): a tenant sums only its own, within bounds', () => {
  test("another tenant's conversations are not counted, and a member without live_chat.reports is refused", async () => {
    const token = (await createWidget(host, { collect_name: false, collect_email: false })).token;
    await (await visitor(host, token)).start('hello');
    await (await visitor(host, token)).start('hello again');
    expect((await host.request('GET', '/live-chat/reports/overview')).body.totals.conversations).toBe(2);
    const rival = await inRival('/live-chat/reports/overview');
    expect(rival.status).toBe(200);
    expect(rival.body.totals.conversations).toBe(0);
    expect((await inRival('/live-chat/reports/agents')).body.data).toEqual([]);
    const agent = await addAgent(host, { online: false });
    expect((await requestAs(host, agent.token, 'GET', '/live-chat/reports/overview')).status).toBe(403);
  });

  test('more than 50,000 conversations in the period, or a period over 731 days, is 422 (not a read of everything)', async () => {
    await host.arrange((sql) =>
      sql(`INSERT INTO live_chat.conversations (widget_id, visitor_id, status, priority, handler_type, created_at, updated_at)
           SELECT 1, 1, 'closed', 'normal', 'agent', TIMESTAMP '2025-06-01' + (n || ' seconds')::interval, now() FROM generate_series(1, 50001) AS n`),
    );
    const big = await host.request('GET', '/live-chat/reports/teams?from=2025-06-01&to=2025-06-30');
    expect(big.status).toBe(422);
    expect(big.body.details.errors.from[0]).toMatch(/more than 50000 conversations/);
    const long = await host.request('GET', '/live-chat/reports/overview?from=2020-01-01&to=2025-01-01');
    expect(long.status).toBe(422);
    // A period of the same table that holds fewer is answered.
    expect((await host.request('GET', '/live-chat/reports/overview?from=2025-06-01T00:00:00Z&to=2025-06-01T01:00:00Z')).body.totals.conversations).toBe(3599);
  }, 120_000);
});
