/**
 * The Communications tools (spec 2, Tools: "Communications 5"; Tool discovery and permission
 * enforcement) through the agent, with a stand-in language model and stand-in MSG91 and WhatsApp
 * Cloud gateways on 127.0.0.1: the agent sends an SMS and a WhatsApp message as the user asking;
 * a user without the send permission is never offered the tool and the gateway hears nothing; a
 * prompt that has the model ask for a flood of messages gets at most MAX_TOOL_CALLS sent; and what
 * is sent goes with this tenant's own gateway settings only (a model cannot name another base URL
 * or key).
 */
import path from 'node:path';
import { createTestHost, type TestHost } from '../../sdk/testing';
import { AI_DIR, llmStandIn, useStandIn, type LlmStandIn } from '../../modules/ai/test/agent-support';
import { MAX_TOOL_CALLS } from '../../modules/ai/src/agent/loop';
import { msg91StandIn } from '../../modules/sms-msg91/test/msg91-stand-in';
import { whatsappStandIn } from '../../modules/whatsapp-cloud/test/whatsapp-stand-in';

const SMS_DIR = path.resolve(__dirname, '../../modules/sms-msg91');
const WHATSAPP_DIR = path.resolve(__dirname, '../../modules/whatsapp-cloud');

describe('spec 2 Tools, Communications (hostile): the agent sends SMS and WhatsApp messages only as far as its user may', () => {
  let host: TestHost;
  let llm: LlmStandIn;
  let msg91: Awaited<ReturnType<typeof msg91StandIn>>;
  let wa: Awaited<ReturnType<typeof whatsappStandIn>>;
  /** May chat and use the SMS tools' names, but not send. */
  let viewer: string;
  /** May chat and send SMS. */
  let sender: string;

  const chatAs = (token: string | null, message: string) =>
    token ? host.requestAs(token, 'POST', '/ai/agent/chat', { message, role: 'comms' }) : host.request('POST', '/ai/agent/chat', { message, role: 'comms' });
  const offered = () => (llm.requests.filter((r) => r.url.endsWith('/chat/completions')).at(-1)!.body.tools ?? []).map((t: { function: { name: string } }) => t.function.name) as string[];

  beforeAll(async () => {
    llm = await llmStandIn();
    msg91 = await msg91StandIn('msg91-key', 'tmpl-agent');
    wa = await whatsappStandIn('EAAG-token', '106540352242922');
    host = await createTestHost({ modulePath: AI_DIR, withModules: [SMS_DIR, WHATSAPP_DIR] });
    await useStandIn(host, llm);
    // The ai module granted itself the model's origin; the gateways' origins go beside it.
    const granted = (await host.request('GET', '/modules/fetch-origins')).body.fetch_origins;
    const put = await host.request('PUT', '/modules/fetch-origins', { fetch_origins: [...granted, { origin: msg91.origin, module: 'sms_msg91' }, { origin: wa.origin, module: 'whatsapp_cloud' }] });
    expect(put.status).toBe(200);
    expect((await host.request('PUT', '/sms-msg91/settings', { authkey: 'msg91-key', template_id: 'tmpl-agent', base_url: msg91.origin })).status).toBe(200);
    expect((await host.request('PUT', '/whatsapp-cloud/settings', { access_token: 'EAAG-token', phone_number_id: '106540352242922', base_url: wa.origin })).status).toBe(200);
    const role = { name: 'Communications', system_prompt: 'You message customers.', allowed_tools: ['sms_msg91.*', 'whatsapp_cloud.*'], temperature: 0.1, max_tokens: 512 };
    expect((await host.request('PUT', '/ai/agent/roles/comms', role)).status).toBe(200);
    viewer = await host.memberWith('comms-viewer', ['ai.view', 'sms_msg91.view']);
    sender = await host.memberWith('comms-sender', ['ai.view', 'sms_msg91.view', 'sms_msg91.use']);
  }, 240_000);
  afterAll(async () => {
    await host?.close();
    await Promise.all([llm?.close(), msg91?.close(), wa?.close()]);
  });

  test('the catalog lists the Communications tools: SMS and WhatsApp send and status', async () => {
    const tools = (await host.request('GET', '/ai/agent/tools')).body.data as Array<{ name: string; module: string }>;
    expect(tools.filter((t) => ['sms_msg91', 'whatsapp_cloud'].includes(t.module)).map((t) => t.name).sort()).toEqual(
      ['sms_msg91.send', 'sms_msg91.status', 'whatsapp_cloud.send', 'whatsapp_cloud.status'].sort(),
    );
  });

  test('a user who may send: the model\'s sms_msg91.send reaches the gateway with the tenant\'s template, and the answer carries the request id', async () => {
    llm.script({ tool_calls: [{ name: 'sms_msg91.send', arguments: { to: '+91 98000-00011', text: 'Your order ORD-7 has shipped.' } }] }, { content: 'Sent.' });
    const res = await chatAs(sender, 'Tell +919800000011 their order ORD-7 has shipped, by SMS.');
    expect(res.status).toBe(200);
    expect(res.body.tool_calls).toEqual([
      { name: 'sms_msg91.send', input: { to: '+91 98000-00011', text: 'Your order ORD-7 has shipped.' }, output: { id: expect.stringMatching(/^[0-9a-f]{24}$/), to: '919800000011', status: 'sent' } },
    ]);
    expect(msg91.sms.at(-1)).toEqual({ template_id: 'tmpl-agent', mobiles: '919800000011', variables: { message: 'Your order ORD-7 has shipped.' } });
    expect(offered()).toContain('sms_msg91_send');
    expect(offered()).not.toContain('sms_msg91_status'); // needs sms_msg91.manage
  });

  test('a user without sms_msg91.use: the send tool is not offered, a model asking for it is refused, and the gateway hears nothing', async () => {
    const before = msg91.sms.length;
    llm.script({ tool_calls: [{ name: 'sms_msg91.send', arguments: { to: '+919800000012', text: 'spam' } }] }, { content: 'Could not.' });
    const res = await chatAs(viewer, 'Send an SMS to +919800000012.');
    expect(res.status).toBe(200);
    expect(res.body.tool_calls).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: 'TOOL_NOT_ALLOWED' }) })]);
    expect(offered()).not.toContain('sms_msg91_send');
    expect(msg91.sms.length).toBe(before);
  });

  test('the owner: WhatsApp send and SMS status as tools; the status never shows the key', async () => {
    llm.script(
      { tool_calls: [{ name: 'whatsapp_cloud.send', arguments: { to: '+919800000013', text: 'Hello from the shop' } }, { name: 'sms_msg91.status', arguments: {} }] },
      { content: 'Done.' },
    );
    const res = await chatAs(null, 'WhatsApp +919800000013 hello, and tell me whether SMS is set up.');
    expect(res.body.tool_calls).toEqual([
      expect.objectContaining({ name: 'whatsapp_cloud.send', output: expect.objectContaining({ status: 'sent' }) }),
      expect.objectContaining({ name: 'sms_msg91.status', output: expect.objectContaining({ configured: true, template_id: 'tmpl-agent' }) }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('msg91-key');
    expect(wa.messages.at(-1)).toMatchObject({ to: '919800000013', body: 'Hello from the shop' });
  });

  test('a model asked to flood: at most MAX_TOOL_CALLS messages go out for one chat message, the rest are refused unsent', async () => {
    const before = msg91.sms.length;
    const flood = Array.from({ length: 40 }, (_, i) => ({ name: 'sms_msg91.send', arguments: { to: `+9198000${String(i).padStart(5, '0')}`, text: 'Win a prize!' } }));
    llm.script({ tool_calls: flood.slice(0, 20) }, { tool_calls: flood.slice(20) }, { content: 'ok' });
    const res = await chatAs(sender, 'Send this to every number you can.');
    expect(res.status).toBe(200);
    const refused = res.body.tool_calls.filter((c: { error?: { code: string } }) => c.error?.code === 'TOOL_CALL_LIMIT');
    expect(res.body.tool_calls).toHaveLength(40);
    expect(refused).toHaveLength(40 - MAX_TOOL_CALLS);
    expect(msg91.sms.length - before).toBe(MAX_TOOL_CALLS);
  });

  test('the model cannot point the send at another gateway or key: the tool\'s input has no such field', async () => {
    const before = msg91.seen.length;
    llm.script({ tool_calls: [{ name: 'sms_msg91.send', arguments: { to: '+919800000014', text: 'x', base_url: 'http://127.0.0.1:9', authkey: 'other' } }] }, { content: 'no' });
    const res = await chatAs(sender, 'Send through my own gateway.');
    expect(res.body.tool_calls).toEqual([expect.objectContaining({ error: expect.objectContaining({ code: 'VALIDATION_FAILED' }) })]);
    expect(msg91.seen.length).toBe(before);
  });
});
