/**
 * Attachments in messages (beyond spec 2, README Attachments) over HTTP on a real platform: a visitor
 * sends an image through the widget's public route and an agent a PDF through the agent API; each
 * message carries `attachment {id, name, content_type, size, url}` and each side downloads the bytes
 * at its own url, served as application/octet-stream with nosniff and the sandbox CSP, as an attachment
 * under the file's own name (`Content-Disposition`, the name escaped for the header); an internal
 * note's file never reaches the visitor; a conversation holds at most 20.
 */
import type { TestHost } from '../../../sdk/testing';
import { addAgent, closeSockets, createWidget, PNG, requestAs, socketClient, startHost, tenantChannel, visitor, widgetCall, type Agent } from './support';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n').toString('base64');

let host: TestHost;
let agent: Agent;
let token: string;
beforeAll(async () => {
  host = await startHost();
  agent = await addAgent(host, { name: 'Asha' });
  token = (await createWidget(host, { collect_name: false, collect_email: false })).token;
}, 180_000);
afterAll(async () => {
  closeSockets();
  await host?.close();
});

const download = (url: string, headers: Record<string, string> = {}) => fetch(`${host.url}${url}`, { headers });

describe('live chat attachments both ways (beyond spec 2, README Attachments)', () => {
  test('a visitor sends an image, an agent a PDF: each message carries the attachment, each side downloads it as a download', async () => {
    const tenant = await socketClient(host, { token: agent.token, tenant: host.tenantId });
    expect(await tenant.subscribe(tenantChannel(host))).toEqual({ ok: true });
    const v = await visitor(host, token);
    const id = (await v.start('Here is the damaged box')).body.conversation.id as number;

    const sent = await widgetCall(host, token, 'POST', `/conversations/${id}/attachments`, { session_id: v.sessionId, name: 'box.png', content_type: 'image/png', data: PNG });
    expect(sent.status).toBe(201);
    const size = Buffer.from(PNG, 'base64').length;
    expect(sent.body.message).toMatchObject({ sender_type: 'visitor', content: 'box.png', attachment: { name: 'box.png', content_type: 'image/png', size } });
    const attachmentId = sent.body.message.attachment.id as number;
    expect(sent.body.message.attachment.url).toBe(`/api/widget/${token}/conversations/${id}/attachments/${attachmentId}`);
    const seen = await tenant.next('chat.message.sent', (p) => p.message.attachment !== null && p.conversation_id === id);
    expect(seen.payload.message.attachment).toEqual({ id: attachmentId, name: 'box.png', content_type: 'image/png', size, url: `/api/v1/live-chat/conversations/${id}/attachments/${attachmentId}` });

    // The agent reads it in the messages and downloads it: the bytes, never rendered as a page.
    const listed = (await requestAs(host, agent.token, 'GET', `/live-chat/conversations/${id}/messages`)).body.data;
    const url = listed.find((m: { attachment: unknown }) => m.attachment).attachment.url as string;
    const got = await download(url, { authorization: `Bearer ${agent.token}`, 'x-tenant': host.tenantId });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-security-policy')).toContain('sandbox');
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="box.png"; filename*=UTF-8''box.png`);
    expect(Buffer.from(await got.arrayBuffer()).toString('base64')).toBe(PNG);
    expect((await download(`${sent.body.message.attachment.url}?session_id=${v.sessionId}`)).status).toBe(200);

    // The agent answers with a PDF; the visitor finds it in their messages and downloads it.
    const reply = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/attachments`, { name: 'label.pdf', content_type: 'application/pdf', data: PDF, content: 'Your return label' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ sender_type: 'agent', sender_name: 'Asha', content: 'Your return label', attachment: { name: 'label.pdf', content_type: 'application/pdf' } });
    const mine = (await v.read(id)).body.data.find((m: { content: string }) => m.content === 'Your return label');
    expect(mine.attachment.url).toBe(`/api/widget/${token}/conversations/${id}/attachments/${reply.body.attachment.id}`);
    const pdf = await download(`${mine.attachment.url}?session_id=${v.sessionId}`);
    expect(Buffer.from(await pdf.arrayBuffer()).toString('base64')).toBe(PDF);
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="label.pdf"; filename*=UTF-8''label.pdf`);
    expect(pdf.headers.get('x-content-type-options')).toBe('nosniff');
    // Without the session the file is not there.
    expect((await download(mine.attachment.url)).status).toBe(422);
  });

  test('a file name with quotes, separators and non-ASCII letters is saved as it is named, and cannot break the header', async () => {
    const v = await visitor(host, token);
    const id = (await v.start('my CV')).body.conversation.id as number;
    const sent = await widgetCall(host, token, 'POST', `/conversations/${id}/attachments`, { session_id: v.sessionId, name: 'résumé "v2"; (final)*.pdf', content_type: 'application/pdf', data: PDF });
    expect(sent.status).toBe(201);
    const got = await download(`/api/v1/live-chat/conversations/${id}/attachments/${sent.body.message.attachment.id}`, { authorization: `Bearer ${agent.token}`, 'x-tenant': host.tenantId });
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="r_sum_ _v2__ (final)*.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22%3B%20%28final%29%2A.pdf`);
  });

  test("an internal note's file never reaches the visitor; a conversation holds at most 20 files (409)", async () => {
    const v = await visitor(host, token);
    const id = (await v.start('hi')).body.conversation.id as number;
    const note = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/attachments`, { name: 'internal.png', content_type: 'image/png', data: PNG, is_internal: true });
    expect(note.status).toBe(201);
    expect((await v.read(id)).body.data.map((m: { content: string }) => m.content)).toEqual(['hi']);
    expect((await download(`/api/widget/${token}/conversations/${id}/attachments/${note.body.attachment.id}?session_id=${v.sessionId}`)).status).toBe(404);
    for (let i = 2; i <= 20; i++) expect((await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/attachments`, { name: `f${i}.png`, content_type: 'image/png', data: PNG })).status).toBe(201);
    const over = await requestAs(host, agent.token, 'POST', `/live-chat/conversations/${id}/attachments`, { name: 'f21.png', content_type: 'image/png', data: PNG });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('ATTACHMENT_LIMIT');
  });
});
