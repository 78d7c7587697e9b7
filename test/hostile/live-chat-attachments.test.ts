/**
 * Live chat attachments (beyond spec 2, modules/live-chat/README: Attachments) against hostile
 * callers: HTML or SVG passed off as an image or as text is refused (declared type off the list: 415;
 * bytes that are not the declared type: 422), an over-size file is refused (422 by the input bound,
 * 413 past the host's body limit), another tenant's attachment id is a 404 here, and a visitor never
 * downloads a file of another visitor's conversation, whichever ids they combine.
 */
import type { TestHost } from '../../sdk/testing';
import { createWidget, PNG, startHost, visitor, widgetCall, type Reply } from '../../modules/live-chat/test/support';

let host: TestHost;
let other: string;
let rivalToken: string;
let token: string;
beforeAll(async () => {
  host = await startHost();
  const made = await host.request('POST', '/admin/tenants', { name: 'Rival', alias: 'rival-files' });
  if (made.status !== 201) throw new Error(JSON.stringify(made.body));
  other = made.body.tenant.id;
  await host.installModule('live_chat', { tenant: other });
  rivalToken = (await host.addMember({ email: 'rita@rival-files.example', role: 'admin', name: 'Rita Rival' }, other)).token;
  token = (await createWidget(host, { collect_name: false, collect_email: false })).token;
}, 180_000);
afterAll(async () => {
  await host?.close();
});

const b64 = (text: string) => Buffer.from(text).toString('base64');
const inRival = async (method: string, p: string, body?: unknown): Promise<Pick<Reply, 'status' | 'body'>> => {
  const res = await fetch(`${host.url}/api/v1${p}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${rivalToken}`, 'x-tenant': other }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

describe('live chat attachments (hostile): no active content, bounded, each conversation its own', () => {
  test('an HTML or SVG "image" or "text" is refused, and so is an over-size file; nothing is stored', async () => {
    const v = await visitor(host, token);
    const id = (await v.start('look')).body.conversation.id as number;
    const send = (name: string, content_type: string, data: string) => widgetCall(host, token, 'POST', `/conversations/${id}/attachments`, { session_id: v.sessionId, name, content_type, data });
    const html = b64('<!doctype html><script>fetch("/api/v1/auth/me")</script>');
    const svg = b64('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const asPng = await send('cat.png', 'image/png', html);
    expect(asPng.status).toBe(422);
    expect(asPng.body.details.errors.data).toHaveLength(1);
    expect((await send('cat.svg', 'image/svg+xml', svg)).status).toBe(415);
    expect((await send('page.html', 'text/html', html)).status).toBe(415);
    expect((await send('notes.txt', 'text/plain', svg)).status).toBe(422);
    expect((await send('cat.png', 'IMAGE/SVG+XML', svg)).status).toBe(415);
    // 512 KiB is the limit: a larger file is refused by the module in words (the widget and the
    // console show the message as it is), a body past 1 MB by the host.
    const over = await send('big.png', 'image/png', Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(512 * 1024)]).toString('base64'));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', message: 'The file is 513 KB; the limit is 512 KB.' });
    expect((await send('huge.png', 'image/png', Buffer.alloc(2 * 1024 * 1024).toString('base64'))).status).toBe(413);
    expect((await v.read(id)).body.data.map((m: { attachment: unknown }) => m.attachment)).toEqual([null]);
    expect(await host.arrange((sql) => sql('SELECT count(*)::int AS n FROM live_chat.attachments'))).toEqual([{ n: 0 }]);
  });

  test("another tenant's attachment id is a 404 here; a visitor downloads only from their own conversation", async () => {
    // The rival's files: its newest id is one this tenant never had (it will hold one file).
    const rivalWidget = (await inRival('POST', '/live-chat/widgets', { name: 'R', collect_name: false, collect_email: false })).body.token as string;
    const rv = await visitor(host, rivalWidget);
    const rivalConversation = (await rv.start('rival')).body.conversation.id as number;
    let rivalFile = 0;
    for (let i = 0; i < 3; i++) {
      const made = await inRival('POST', `/live-chat/conversations/${rivalConversation}/attachments`, { name: 'secret.png', content_type: 'image/png', data: PNG });
      expect(made.status).toBe(201);
      rivalFile = made.body.attachment.id;
    }
    expect((await inRival('GET', `/live-chat/conversations/${rivalConversation}/messages`)).body.data).toHaveLength(4);

    const alice = await visitor(host, token, { name: 'Alice' });
    const mallory = await visitor(host, token, { name: 'Mallory' });
    const aliceConversation = (await alice.start('mine')).body.conversation.id as number;
    const malloryConversation = (await mallory.start('mine too')).body.conversation.id as number;
    const aliceFile = (await widgetCall(host, token, 'POST', `/conversations/${aliceConversation}/attachments`, { session_id: alice.sessionId, name: 'id.png', content_type: 'image/png', data: PNG })).body.message.attachment.id as number;

    // The tenant's agent API does not reach the rival's file, whatever ids are named.
    const agentGet = async (conversation: number, file: number) => (await fetch(`${host.url}/api/v1/live-chat/conversations/${conversation}/attachments/${file}`, { headers: { authorization: `Bearer ${host.token}`, 'x-tenant': host.tenantId } })).status;
    expect(await agentGet(rivalConversation, rivalFile)).toBe(404);
    expect(await agentGet(aliceConversation, rivalFile)).toBe(404);
    // Mallory: Alice's conversation with her own session, or Alice's file under her own conversation.
    const get = (conversation: number, file: number, session: string) => fetch(`${host.url}/api/widget/${token}/conversations/${conversation}/attachments/${file}?session_id=${session}`);
    expect((await get(aliceConversation, aliceFile, mallory.sessionId)).status).toBe(404);
    expect((await get(malloryConversation, aliceFile, mallory.sessionId)).status).toBe(404);
    expect((await get(aliceConversation, aliceFile, alice.sessionId)).status).toBe(200);
    // Nor may she attach to Alice's conversation.
    expect((await widgetCall(host, token, 'POST', `/conversations/${aliceConversation}/attachments`, { session_id: mallory.sessionId, name: 'x.png', content_type: 'image/png', data: PNG })).status).toBe(404);
  });
});
