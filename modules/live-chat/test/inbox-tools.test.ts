/**
 * The inbox tools beyond spec 2 (README: Canned responses, Labels, Typing, Transcript), over HTTP and
 * sockets on a real platform: canned responses of the tenant and of each agent, searched by prefix;
 * labels on conversations and the list filtered by one; typing both ways over spec 2's realtime
 * channels (Events), limited; the transcript mailed on close through the host's mail.send to the
 * local SMTP stand-in.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, closeSockets, createWidget, requestAs, socketClient, startHost, tenantChannel, visitor, widgetCall } from './support';

let host: TestHost;
let token: string;
beforeAll(async () => {
  host = await startHost({}, [], { smtp: true });
  token = (await createWidget(host, { name: 'Acme Shop' })).token;
}, 120_000);
afterAll(async () => {
  closeSockets();
  await host?.close();
});

describe('live chat canned responses (beyond spec 2)', () => {
  test("the tenant's are seen by every agent, an agent's own by them alone; prefix search; unique short code per owner", async () => {
    const ann = await addAgent(host, { online: false, name: 'Ann' });
    const bob = await addAgent(host, { online: false, name: 'Bob' });
    const shared = await host.request('POST', '/live-chat/canned-responses', { short_code: 'ship', content: 'We ship within 2 days.' });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({ short_code: 'ship', content: 'We ship within 2 days.', agent_id: null });
    expect((await host.request('POST', '/live-chat/canned-responses', { short_code: 'SHIP', content: 'x' })).body.code).toBe('CANNED_RESPONSE_EXISTS');
    await host.request('POST', '/live-chat/canned-responses', { short_code: 'refund', content: 'Refunds take 5 days.' });
    const own = await requestAs(host, ann.token, 'POST', '/live-chat/agents/me/canned-responses', { short_code: 'shipfast', content: 'Ann here: express is 1 day.' });
    expect(own.status).toBe(201);
    expect(own.body.agent_id).toBe(ann.id);
    // The same code as the tenant's is another owner's: allowed.
    expect((await requestAs(host, bob.token, 'POST', '/live-chat/agents/me/canned-responses', { short_code: 'ship', content: 'Bob: shipping!' })).status).toBe(201);

    const codes = async (t: string, prefix = '') => (await requestAs(host, t, 'GET', `/live-chat/canned-responses${prefix ? `?prefix=${prefix}` : ''}`)).body.data.map((r: { short_code: string; content: string }) => `${r.short_code}:${r.content.slice(0, 4)}`);
    expect(await codes(ann.token, 'sh')).toEqual(['ship:We s', 'shipfast:Ann ']);
    expect(await codes(ann.token, 'SHIPF')).toEqual(['shipfast:Ann ']);
    expect(await codes(bob.token, 'sh')).toEqual(['ship:We s', 'ship:Bob:']);
    expect(await codes(host.token)).toEqual(['refund:Refu', 'ship:We s']);
    expect((await requestAs(host, ann.token, 'GET', '/live-chat/canned-responses?prefix=a%25')).status).toBe(422);

    const edited = await requestAs(host, ann.token, 'PUT', `/live-chat/agents/me/canned-responses/${own.body.id}`, { content: 'Express: next day.' });
    expect(edited.body).toMatchObject({ id: own.body.id, short_code: 'shipfast', content: 'Express: next day.' });
    // An agent cannot change the tenant's (no manage permission), nor the tenant's route change an agent's own.
    expect((await requestAs(host, ann.token, 'PUT', `/live-chat/canned-responses/${shared.body.id}`, { content: 'hacked' })).status).toBe(403);
    expect((await host.request('PUT', `/live-chat/canned-responses/${own.body.id}`, { content: 'x' })).status).toBe(404);
    expect((await host.request('DELETE', `/live-chat/canned-responses/${shared.body.id}`)).body).toEqual({ deleted: true, id: shared.body.id });
    expect(await codes(ann.token, 'sh')).toEqual(['shipfast:Expr']);
  });
});

describe('live chat labels (beyond spec 2)', () => {
  test('tenant labels, put on and taken off conversations, the list filtered by label', async () => {
    const vip = await host.request('POST', '/live-chat/labels', { name: 'VIP', color: '#ff0000' });
    expect(vip.status).toBe(201);
    expect((await host.request('POST', '/live-chat/labels', { name: 'vip' })).body.code).toBe('LABEL_EXISTS');
    expect((await host.request('POST', '/live-chat/labels', { name: 'x', color: 'red' })).status).toBe(422);
    const bug = (await host.request('POST', '/live-chat/labels', { name: 'bug' })).body;
    const one = (await (await visitor(host, token)).start('first')).body.conversation.id;
    const two = (await (await visitor(host, token)).start('second')).body.conversation.id;
    const added = await host.request('POST', `/live-chat/conversations/${one}/labels`, { label_id: vip.body.id });
    expect(added.body).toEqual({ data: [{ id: vip.body.id, name: 'VIP', color: '#ff0000' }] });
    await host.request('POST', `/live-chat/conversations/${one}/labels`, { label_id: vip.body.id });
    await host.request('POST', `/live-chat/conversations/${one}/labels`, { label_id: bug.id });
    await host.request('POST', `/live-chat/conversations/${two}/labels`, { label_id: bug.id });
    const listed = async (labelId: number) => (await host.request('GET', `/live-chat/conversations?label_id=${labelId}`)).body;
    expect((await listed(vip.body.id)).data.map((c: { id: number }) => c.id)).toEqual([one]);
    expect((await listed(bug.id)).data.map((c: { id: number }) => c.id)).toEqual([two, one]);
    expect((await listed(bug.id)).data[1].labels.map((l: { name: string }) => l.name)).toEqual(['VIP', 'bug']);
    expect((await host.request('GET', `/live-chat/conversations/${one}`)).body.labels).toHaveLength(2);

    expect((await host.request('DELETE', `/live-chat/conversations/${one}/labels/${bug.id}`)).body.data.map((l: { name: string }) => l.name)).toEqual(['VIP']);
    expect((await listed(bug.id)).data.map((c: { id: number }) => c.id)).toEqual([two]);
    expect((await host.request('POST', `/live-chat/conversations/${one}/labels`, { label_id: 999999 })).status).toBe(404);
    await host.request('DELETE', `/live-chat/labels/${bug.id}`);
    expect((await host.request('GET', `/live-chat/conversations/${two}`)).body.labels).toEqual([]);
    expect((await listed(bug.id)).pagination.total).toBe(0);
  });
});

describe('live chat typing over spec 2 Events channels (beyond spec 2)', () => {
  test('the visitor typing reaches agents, the agent typing reaches the visitor; a second start within a second is 429', async () => {
    const agent = await addAgent(host, { name: 'Tia' });
    const v = await visitor(host, token, { name: 'Val' });
    const started = await v.start('hello');
    const id: number = started.body.conversation.id;
    const agentSocket = await socketClient(host, { token: agent.token, tenant: host.tenantId });
    expect(await agentSocket.subscribe(tenantChannel(host))).toEqual({ ok: true });
    const visitorSocket = await socketClient(host, { grant: started.body.grant, tenant: started.body.tenant });
    expect(await visitorSocket.subscribe(`chat.conversation.${id}`)).toEqual({ ok: true });

    const typing = (body: Record<string, unknown>) => widgetCall(host, token, 'POST', `/conversations/${id}/typing`, { session_id: v.sessionId, ...body });
    expect((await typing({ typing: true })).body).toEqual({ sent: true });
    const seen = await agentSocket.next('chat.typing', (p) => p.conversation_id === id && p.sender_type === 'visitor');
    expect(seen.payload).toMatchObject({ conversation_id: id, sender_type: 'visitor', sender_name: 'Val', typing: true, _tenant_id: host.tenantId });
    const again = await typing({ typing: true });
    expect(again.status).toBe(429);
    expect(again.body.code).toBe('RATE_LIMITED');
    expect((await typing({ typing: false })).body).toEqual({ sent: true });
    expect((await typing({ typing: false })).body).toEqual({ sent: false });

    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/typing`, { typing: true })).body).toEqual({ sent: true });
    const shown = await visitorSocket.next('chat.typing', (p) => p.sender_type === 'agent');
    expect(shown.payload).toMatchObject({ conversation_id: id, sender_type: 'agent', sender_name: 'Tia', typing: true });
  });
});

describe('live chat transcript on close (beyond spec 2)', () => {
  test('closing mails the visitor what they saw (no internal note) through the platform mail transport; no email, no mail', async () => {
    const agent = await addAgent(host, { name: 'Max' });
    const v = await visitor(host, token, { name: 'Pia', email: 'pia@example.com' });
    const id = (await v.start('Where is order 42?')).body.conversation.id;
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'It left today.' });
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/messages`, { content: 'SECRET NOTE', is_internal: true });
    expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/close`, {})).status).toBe(200);
    const mail = await host.waitForMail((m) => m.to.includes('pia@example.com'), 15_000);
    expect(mail.subject).toBe('Your conversation with Acme Shop');
    expect(mail.text).toMatch(/Pia: Where is order 42\?/);
    expect(mail.text).toMatch(/Max: It left today\./);
    expect(mail.text).not.toContain('SECRET NOTE');

    const before = (await host.inbox()).length;
    const anonymous = await widgetCall(host, token, 'POST', '/session', { name: 'No Mail' });
    expect(anonymous.status).toBe(422); // the widget collects email: a visitor without one is refused, so none reaches close
    const w = await createWidget(host, { name: 'No email widget', collect_email: false });
    const s = (await widgetCall(host, w.token, 'POST', '/session', { name: 'Nia' })).body.session_id;
    const other = (await widgetCall(host, w.token, 'POST', '/conversations', { session_id: s, message: 'hi' })).body.conversation.id;
    await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${other}/close`, {});
    await new Promise((r) => setTimeout(r, 1500));
    expect((await host.inbox()).length).toBe(before);
  });
});
