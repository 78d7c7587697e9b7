/** sms_msg91 against a stand-in of MSG91's Flow API on 127.0.0.1, in the real sandbox. */
import path from 'node:path';
import type { TestHost } from '../../../sdk/testing';
import { startHostAllowing } from '../../orders/test/support';
import { msg91StandIn } from './msg91-stand-in';

let host: TestHost;
let msg91: Awaited<ReturnType<typeof msg91StandIn>>;

beforeAll(async () => {
  msg91 = await msg91StandIn('msg91-key', 'tmpl-order-updates');
  host = await startHostAllowing({ modulePath: path.resolve(__dirname, '..') }, { sms_msg91: [msg91.origin] });
}, 60_000);
afterAll(async () => {
  await host?.close();
  await msg91?.close();
});

describe('spec 3 notification rules: sms channel over MSG91\'s Flow API', () => {
  it('refuses to send unconfigured', async () => {
    await expect(host.call('sms_msg91.send', { to: '+919800000000', text: 'hi' })).rejects.toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
  });

  it('sends the text in the template variable with the authkey header; reports MSG91 errors, also those answered with 200', async () => {
    const put = await host.request('PUT', '/sms-msg91/settings', { authkey: 'wrong', template_id: 'tmpl-order-updates', base_url: msg91.origin });
    expect(put.status).toBe(200);
    expect(JSON.stringify(put.body)).not.toContain('wrong');
    await expect(host.call('sms_msg91.send', { to: '+919800000000', text: 'hi' })).rejects.toMatchObject({ code: 'MSG91_ERROR', status: 502 });

    await host.call('sms_msg91.configure', { authkey: 'msg91-key', template_id: 'tmpl-order-updates', base_url: msg91.origin });
    const sent = await host.call<{ id: string; to: string }>('sms_msg91.send', { to: '+91 98000-00001', text: 'Order ORD-1 shipped' });
    expect(sent).toEqual({ id: expect.stringMatching(/^[0-9a-f]{24}$/), to: '919800000001', status: 'sent' });
    const req = msg91.seen.pop()!;
    expect(req.url).toBe('/api/v5/flow');
    expect(req.headers.authkey).toBe('msg91-key');
    expect(req.body).toEqual({ template_id: 'tmpl-order-updates', short_url: '0', recipients: [{ mobiles: '919800000001', message: 'Order ORD-1 shipped' }] });
    // A bare 10-digit number gets the default country code.
    await host.call('sms_msg91.send', { to: '9800000002', text: 'x' });
    expect(msg91.sms.pop()).toEqual({ template_id: 'tmpl-order-updates', mobiles: '919800000002', variables: { message: 'x' } });

    await expect(host.call('sms_msg91.send', { to: '+919800000000', text: 'x', template_id: 'unknown' })).rejects.toMatchObject({ code: 'MSG91_ERROR', message: expect.stringMatching(/Template ID is invalid/) });
    await expect(host.call('sms_msg91.send', { to: 'call me', text: 'x' })).rejects.toMatchObject({ code: 'INVALID_PHONE', status: 422 });
    expect((await host.request('GET', '/sms-msg91/settings')).body).toEqual({ configured: true, template_id: 'tmpl-order-updates', text_variable: 'message', base_url: msg91.origin, default_country_code: '91' });
  });

  it('reaches only an origin the tenant allowed', async () => {
    await host.call('sms_msg91.configure', { authkey: 'msg91-key', template_id: 'tmpl-order-updates', base_url: 'http://127.0.0.1:9' });
    await expect(host.call('sms_msg91.send', { to: '+919800000000', text: 'x' })).rejects.toMatchObject({ code: expect.stringMatching(/FETCH/) });
  });
});

describe('DESIGN Host capabilities for modules: the authkey is a module secret, the rest host settings; earlier versions\' rows move on first use or at the legacy_secrets schedule', () => {
  it('configure keeps the authkey out of the Setting table; a 1.0 row is moved, deleted, and still sends', async () => {
    await host.call('sms_msg91.configure', { authkey: 'msg91-key', template_id: 'tmpl-order-updates', base_url: msg91.origin });
    expect(await host.sql(`SELECT key FROM sms_msg91.settings WHERE key = 'authkey'`)).toEqual([]);
    expect((await host.request('GET', '/modules/sms_msg91/secrets')).body.secrets).toEqual([expect.objectContaining({ name: 'authkey', set: true })]);

    await host.request('DELETE', '/modules/sms_msg91/secrets/authkey');
    await expect(host.call('sms_msg91.send', { to: '9800000003', text: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_NOT_CONFIGURED' });
    await host.arrange((sql) => sql(`INSERT INTO sms_msg91.settings (key, value) VALUES ('authkey', 'msg91-key')`));
    await host.call('sms_msg91.send', { to: '9800000003', text: 'moved' });
    expect(msg91.seen.pop()!.headers.authkey).toBe('msg91-key');
    expect(await host.sql(`SELECT key FROM sms_msg91.settings WHERE key = 'authkey'`)).toEqual([]);
    expect(await host.call('sms_msg91.status', {})).toMatchObject({ configured: true });
  });

  it('the template and the rest 1.2 kept in Setting are copied once into the host settings, their rows deleted', async () => {
    await host.request('PUT', '/modules/sms_msg91/settings', { values: {} });
    await host.arrange((sql) => sql(`INSERT INTO sms_msg91.settings (key, value) VALUES ('template_id', 'tmpl-legacy'), ('base_url', $1), ('default_country_code', '44')`, [msg91.origin]));
    expect(await host.call('sms_msg91.status', {})).toEqual({ configured: true, template_id: 'tmpl-legacy', text_variable: 'message', base_url: msg91.origin, default_country_code: '44' });
    expect(await host.sql(`SELECT key FROM sms_msg91.settings`)).toEqual([]);
    expect((await host.request('GET', '/modules/sms_msg91/settings')).body.values).toEqual({ template_id: 'tmpl-legacy', text_variable: 'message', base_url: msg91.origin, default_country_code: '44' });
    await host.request('PATCH', '/modules/sms_msg91/settings', { values: { template_id: 'tmpl-order-updates', default_country_code: null } });
  });

  it('in a tenant that makes no call, the legacy_secrets schedule moves the row at its next quarter hour', async () => {
    await host.request('DELETE', '/modules/sms_msg91/secrets/authkey');
    await host.arrange((sql) => sql(`INSERT INTO sms_msg91.settings (key, value) VALUES ('authkey', 'msg91-key')`));

    // 10:15 is a slot of the 15-minute schedule; it runs through the tick and the job queue, as on a platform node.
    expect(await host.runSchedules(Date.parse('2031-03-01T10:15:05Z'), { settle: true })).toBe(1);
    expect(await host.sql(`SELECT key FROM sms_msg91.settings WHERE key = 'authkey'`)).toEqual([]);
    expect((await host.request('GET', '/modules/sms_msg91/secrets')).body.secrets).toEqual([expect.objectContaining({ name: 'authkey', set: true })]);
    await host.call('sms_msg91.send', { to: '9800000004', text: 'swept' });
    expect(msg91.seen.pop()!.headers.authkey).toBe('msg91-key');
    // A run with nothing left to move changes nothing.
    expect(await host.runSchedule('legacy_secrets')).toEqual({ checked: true });
    expect(await host.call('sms_msg91.status', {})).toMatchObject({ configured: true });
  });
});
