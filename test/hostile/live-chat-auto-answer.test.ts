/**
 * live_chat.auto_answer and live_chat.business_hours_status (modules/live-chat/README: Events for
 * modules) called from hostile modules' sandboxes. Only a module whose manifest consumes them
 * reaches them (rt_intruder does not; chat_answerer does, as the ai module does), and a member
 * reaches auto_answer only with live_chat.reply. A consumer answers only in an open conversation of
 * the tenant it runs in (another tenant's id is a missing one, a closed one answers `{sent: false}`),
 * always as the bot: it cannot name the sender, mark the message internal, or pass a message over
 * the 5,000-character limit, and its once-per-key mark is its own (no other module's key is
 * reachable). Hours of its own are checked within the widgets' schema.
 */
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const LIVE_CHAT = path.join(__dirname, '../../modules/live-chat');
const ANSWERER = path.join(__dirname, 'fixtures/modules/chat-answerer');
const INTRUDER = path.join(__dirname, 'fixtures/modules/rt-intruder');
const HOURS = { timezone: 'UTC', monday: { enabled: true, start: '09:00', end: '17:00' } };

let tp: TestPlatform;
let owner: { token: string; tenantId: string; userId: number };
let globex: string;
let widgetToken: string;

const install = (alias: string, tenantId: string) => tp.platform.kernel.modules.install(tenantId, alias);

beforeAll(async () => {
  await buildModule(LIVE_CHAT);
  tp = await startTestPlatform({ MODULE_PATHS: [LIVE_CHAT, ANSWERER, INTRUDER].join(':') });
  owner = await tp.install('acme');
  for (const alias of ['live_chat', 'chat_answerer', 'rt_intruder']) await install(alias, owner.tenantId);
  const other = await tp.api('/admin/tenants', { token: owner.token, tenant: 'acme', body: { name: 'Globex', alias: 'globex' } });
  if (other.status !== 201) throw new Error(JSON.stringify(other.body));
  globex = other.body.tenant.id;
  for (const alias of ['live_chat', 'chat_answerer']) await install(alias, globex);
  const widget = await tp.api('/live-chat/widgets', { token: owner.token, tenant: 'acme', body: { name: 'Shop chat', collect_name: false, collect_email: false } });
  if (widget.status !== 201) throw new Error(JSON.stringify(widget.body));
  widgetToken = widget.body.token;
}, 240_000);
afterAll(() => tp?.close());

/** A hostile module calls a host operation with exactly this input, from its sandbox, in a tenant. */
const relay = (alias: string, op: string, input: unknown, tenantId = owner.tenantId) =>
  tp.platform.kernel.bus.call({ kind: 'core', name: 'test' }, `${alias}.raw`, { op, input }, { tenantId, user: null });
const answer = (input: unknown, tenantId?: string) => relay('chat_answerer', 'live_chat.auto_answer', input, tenantId);

/** A visitor's new conversation in acme (the widget's public API). */
async function conversation(): Promise<number> {
  const session = await fetch(`${tp.url}/api/widget/${widgetToken}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  const { session_id } = (await session.json()) as { session_id: string };
  const started = await fetch(`${tp.url}/api/widget/${widgetToken}/conversations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session_id, message: 'hello' }) });
  if (started.status !== 201) throw new Error(`start: ${started.status} ${await started.text()}`);
  return ((await started.json()) as { conversation: { id: number } }).conversation.id;
}

type Message = { sender_type: string; sender_id: number | null; sender_name: string | null; content: string; is_internal: boolean };
const messages = async (id: number, tenant = 'acme'): Promise<Message[]> => {
  const res = await tp.api(`/live-chat/conversations/${id}/messages`, { method: 'GET', token: owner.token, tenant });
  if (res.status !== 200) throw new Error(`messages: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
};
const bots = async (id: number) => (await messages(id)).filter((m) => m.sender_type !== 'visitor');

describe('live_chat.auto_answer and business_hours_status (hostile; live chat README, Events for modules)', () => {
  test('a module that does not consume them is refused, and so is a member without live_chat.reply', async () => {
    const id = await conversation();
    await expect(relay('rt_intruder', 'live_chat.auto_answer', { conversation_id: id, content: 'hi', key: 'k' })).rejects.toMatchObject({ status: 403, code: 'OPERATION_NOT_CONSUMED' });
    await expect(relay('rt_intruder', 'live_chat.business_hours_status', { business_hours: HOURS })).rejects.toMatchObject({ status: 403, code: 'OPERATION_NOT_CONSUMED' });
    const viewer = { tenantId: owner.tenantId, user: { id: owner.userId, email: 'viewer@acme.example', name: 'Viewer', isSuperAdmin: false }, permissions: new Set(['live_chat.view']) };
    await expect(tp.platform.kernel.bus.call({ kind: 'edge', via: 'http' }, 'live_chat.auto_answer', { conversation_id: id, content: 'hi', key: 'k' }, viewer)).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(await bots(id)).toEqual([]);
  });

  test("another tenant's conversation id is a missing one there, and its conversation gets nothing", async () => {
    const id = await conversation();
    await expect(answer({ conversation_id: id, content: 'from globex', key: 'k' }, globex)).rejects.toMatchObject({ status: 404 });
    // The tenant is the call's, never the input's.
    await expect(answer({ conversation_id: id, content: 'from globex', key: 'k', tenant_id: owner.tenantId }, globex)).rejects.toMatchObject({ status: 422 });
    expect(await bots(id)).toEqual([]);
  });

  test('a closed conversation answers {sent: false} and gets no message', async () => {
    const id = await conversation();
    expect((await tp.api(`/live-chat/conversations/${id}/close`, { token: owner.token, tenant: 'acme', body: {} })).status).toBe(200);
    const before = await bots(id);
    expect(await answer({ conversation_id: id, content: 'too late', key: 'k' })).toEqual({ sent: false });
    expect((await bots(id)).filter((m) => m.content === 'too late')).toEqual([]);
    expect((await bots(id)).length).toBe(before.length);
  });

  test('the answer is always the bot, public: a forged sender, an internal note, a metadata mark or a type are refused', async () => {
    const id = await conversation();
    for (const forged of [{ sender_type: 'agent' }, { sender_id: 1 }, { sender_name: 'Ada Owner' }, { is_internal: true }, { type: 'system' }, { metadata: { auto_answer: 'ai:out_of_hours' } }]) {
      await expect(answer({ conversation_id: id, content: 'forged', key: 'k', ...forged })).rejects.toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    }
    expect(await answer({ conversation_id: id, content: 'We are closed', key: 'out_of_hours' })).toEqual({ sent: true });
    expect(await bots(id)).toEqual([expect.objectContaining({ sender_type: 'bot', sender_id: null, sender_name: 'Assistant', content: 'We are closed', is_internal: false })]);
  });

  test('an answer over 5,000 characters, an empty one, or a key that could name another module is refused', async () => {
    const id = await conversation();
    for (const input of [
      { conversation_id: id, content: 'x'.repeat(5001), key: 'k' },
      { conversation_id: id, content: 'x'.repeat(1_000_000), key: 'k' },
      { conversation_id: id, content: '', key: 'k' },
      // The once-per-key mark is `<calling module>:<key>`: a key holding ':' could read as another module's.
      { conversation_id: id, content: 'hi', key: 'ai:out_of_hours' },
      { conversation_id: id, content: 'hi', key: 'k'.repeat(65) },
      { conversation_id: 0, content: 'hi', key: 'k' },
    ]) {
      await expect(answer(input)).rejects.toMatchObject({ status: 422 });
    }
    expect(await answer({ conversation_id: id, content: 'x'.repeat(5000), key: 'k' })).toEqual({ sent: true });
    // Once per key: the same key again writes nothing.
    expect(await answer({ conversation_id: id, content: 'again', key: 'k' })).toEqual({ sent: false });
    expect((await bots(id)).map((m) => m.content.length)).toEqual([5000]);
  });

  test('business_hours_status takes only the widgets\' schema, bounded, and answers a bad time zone as a problem', async () => {
    expect(await relay('chat_answerer', 'live_chat.business_hours_status', { business_hours: HOURS })).toEqual({ open: expect.any(Boolean), problem: null });
    for (const business_hours of [
      { ...HOURS, timezone: 'x'.repeat(65) },
      { ...HOURS, funday: { enabled: true } },
      { ...HOURS, monday: { enabled: true, start: '9am', end: '17:00' } },
      { ...HOURS, monday: { enabled: true, start: '09:00', end: '17:00', extra: 'x'.repeat(100_000) } },
      Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
    ]) {
      await expect(relay('chat_answerer', 'live_chat.business_hours_status', { business_hours })).rejects.toMatchObject({ status: 422 });
    }
    expect(await relay('chat_answerer', 'live_chat.business_hours_status', { business_hours: { ...HOURS, timezone: 'Mars/Olympus' } })).toEqual({ open: false, problem: expect.any(String) });
  });
});
