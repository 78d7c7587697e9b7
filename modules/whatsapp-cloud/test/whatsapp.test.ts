/** whatsapp_cloud against a stand-in of Meta's WhatsApp Cloud API on 127.0.0.1, in the real sandbox. */
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { startHostAllowing } from '../../orders/test/support';
import { OUTSIDE_WINDOW, whatsappStandIn } from './whatsapp-stand-in';

let host: TestHost;
let wa: Awaited<ReturnType<typeof whatsappStandIn>>;

beforeAll(async () => {
  wa = await whatsappStandIn('EAAG-token', '106540352242922');
  host = await startHostAllowing({ modulePath: path.resolve(__dirname, '..') }, { whatsapp_cloud: [wa.origin] });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await wa?.close();
});

describe('spec 3 notification rules: whatsapp channel over the WhatsApp Cloud API', () => {
  it('refuses to send unconfigured', async () => {
    await expect(host.call('whatsapp_cloud.send', { to: '+919800000000', text: 'hi' })).rejects.toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
  });

  it('POSTs a text message with the bearer token and returns the wamid; reports Meta errors with their code', async () => {
    await host.call('whatsapp_cloud.configure', { access_token: 'bad', phone_number_id: '106540352242922', base_url: wa.origin });
    await expect(host.call('whatsapp_cloud.send', { to: '+919800000000', text: 'hi' })).rejects.toMatchObject({ code: 'WHATSAPP_ERROR', status: 502, details: expect.objectContaining({ whatsapp_code: 190 }) });

    const put = await host.request('PUT', '/whatsapp-cloud/settings', { access_token: 'EAAG-token', phone_number_id: '106540352242922', base_url: wa.origin });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('EAAG-token');
    const sent = await host.call('whatsapp_cloud.send', { to: '+91 98000 00001', text: 'Your order ORD-1 is out for delivery' });
    expect(sent).toEqual({ id: expect.stringMatching(/^wamid\./), to: '919800000001', status: 'sent' });
    const req = wa.seen.pop()!;
    expect(req.url).toBe('/v21.0/106540352242922/messages');
    expect(req.headers.authorization).toBe('Bearer EAAG-token');
    expect(req.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '919800000001', type: 'text', text: { preview_url: false, body: 'Your order ORD-1 is out for delivery' } });

    await expect(host.call('whatsapp_cloud.send', { to: `+${OUTSIDE_WINDOW}`, text: 'x' })).rejects.toMatchObject({ code: 'WHATSAPP_ERROR', status: 422, details: expect.objectContaining({ whatsapp_code: 131047 }) });
    await expect(host.call('whatsapp_cloud.send', { to: 'call me now', text: 'x' })).rejects.toMatchObject({ code: 'INVALID_PHONE' });
    expect(wa.messages).toHaveLength(1);
  });
});

describe('DESIGN Host capabilities for modules: the access token is a module secret, the rest host settings; earlier versions\' rows move on first use or at the legacy_secrets schedule', () => {
  it('configure keeps the token out of the Setting table; a 1.0 row is moved, deleted, and still sends', async () => {
    await host.call('whatsapp_cloud.configure', { access_token: 'EAAG-token', phone_number_id: '106540352242922', base_url: wa.origin });
    expect(await host.sql(`SELECT key FROM whatsapp_cloud.settings WHERE key = 'access_token'`)).toEqual([]);
    expect((await host.request('GET', '/modules/whatsapp_cloud/secrets')).body.secrets).toEqual([expect.objectContaining({ name: 'access_token', set: true })]);

    await host.request('DELETE', '/modules/whatsapp_cloud/secrets/access_token');
    await expect(host.call('whatsapp_cloud.send', { to: '+919800000000', text: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
    await host.arrange((sql) => sql(`INSERT INTO whatsapp_cloud.settings (key, value) VALUES ('access_token', 'EAAG-token')`));
    await host.call('whatsapp_cloud.send', { to: '+919800000000', text: 'moved' });
    expect(wa.seen.pop()!.headers.authorization).toBe('Bearer EAAG-token');
    expect(await host.sql(`SELECT key FROM whatsapp_cloud.settings WHERE key = 'access_token'`)).toEqual([]);
    expect(await host.call('whatsapp_cloud.status', {})).toMatchObject({ configured: true });
  });

  it('the number id and the rest 1.2 kept in Setting are copied once into the host settings, their rows deleted', async () => {
    await host.request('PUT', '/modules/whatsapp_cloud/settings', { values: {} });
    await host.arrange((sql) => sql(`INSERT INTO whatsapp_cloud.settings (key, value) VALUES ('phone_number_id', '106540352242922'), ('base_url', $1), ('api_version', 'v20.0')`, [wa.origin]));
    expect(await host.call('whatsapp_cloud.status', {})).toMatchObject({ configured: true, phone_number_id: '106540352242922', api_version: 'v20.0', base_url: wa.origin, default_country_code: '91' });
    expect(await host.sql(`SELECT key FROM whatsapp_cloud.settings`)).toEqual([]);
    expect((await host.request('GET', '/modules/whatsapp_cloud/settings')).body.values).toEqual({ phone_number_id: '106540352242922', api_version: 'v20.0', base_url: wa.origin, default_country_code: '91' });
    await host.request('PATCH', '/modules/whatsapp_cloud/settings', { values: { api_version: null } });
  });

  it('in a tenant that makes no call, the legacy_secrets schedule moves the row at its next quarter hour', async () => {
    await host.request('DELETE', '/modules/whatsapp_cloud/secrets/access_token');
    await host.arrange((sql) => sql(`INSERT INTO whatsapp_cloud.settings (key, value) VALUES ('access_token', 'EAAG-token')`));

    // 10:15 is a slot of the 15-minute schedule; it runs through the tick and the job queue, as on a platform node.
    expect(await host.runSchedules(Date.parse('2031-03-01T10:15:05Z'), { settle: true })).toBe(1);
    expect(await host.sql(`SELECT key FROM whatsapp_cloud.settings WHERE key = 'access_token'`)).toEqual([]);
    expect((await host.request('GET', '/modules/whatsapp_cloud/secrets')).body.secrets).toEqual([expect.objectContaining({ name: 'access_token', set: true })]);
    await host.call('whatsapp_cloud.send', { to: '+919800000000', text: 'swept' });
    expect(wa.seen.pop()!.headers.authorization).toBe('Bearer EAAG-token');
    // A run with nothing left to move changes nothing.
    expect(await host.runSchedule('legacy_secrets')).toEqual({ checked: true });
    expect(await host.call('whatsapp_cloud.status', {})).toMatchObject({ configured: true });
  });
});
