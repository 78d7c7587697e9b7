import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpPushAdapter } from './http-push-adapter';
import { PushDeliveryError, pushData, type PushMessage } from './push-message';
import type { PushDevice } from './device-store';
import type { Notification } from '../notification';

const device = { id: 'd1', user_id: 1, platform: 'ios', token: 'apns-1', keys: null, device_name: null, created_at: '', updated_at: '' } as PushDevice;
const message: PushMessage = { tenantId: 't1', banner: true, notification: { id: 'n1', type: 'x', severity: 'info', title: 'T', body: 'B' } as unknown as Notification };

describe('spec 1: Notifications push delivery through the one outbound path (PUSH_URL is the operator\'s)', () => {
  it('reaches an operator push service on a private address over plain http', async () => {
    let seen: { auth?: string; body?: string } = {};
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen = { auth: req.headers.authorization, body };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ invalid_tokens: ['apns-1', 7] }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const adapter = new HttpPushAdapter({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`, token: 'tok' });
      await expect(adapter.send([device], message)).resolves.toEqual({ invalidTokens: ['apns-1'] });
      expect(seen.auth).toBe('Bearer tok');
      expect(JSON.parse(seen.body!).id).toBe('t1:n1');
    } finally {
      server.close();
    }
  });

  it('refuses a PUSH_URL on a cloud metadata address without retrying, as every outbound call does', async () => {
    const adapter = new HttpPushAdapter({ url: 'http://169.254.169.254/push', token: 'tok', timeoutMs: 1_000 });
    const err = await adapter.send([device], message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PushDeliveryError);
    expect((err as PushDeliveryError).retryable).toBe(false);
    expect((err as Error).message).toMatch(/PUSH_URL refused: the URL leads to 169\.254\.169\.254, a link-local, cloud metadata/);
  });

  it('passes the channel and vibration a sender asks for (spec 2: chat_urgent, 10 s), bounded, and nothing else of data', async () => {
    const urgent = { ...message, notification: { ...message.notification, data: { push: { channel: 'chat_urgent', vibration_ms: 10_000 }, secret: 'x' } } } as PushMessage;
    expect(pushData(urgent)).toEqual({ notification_id: 'n1', tenant_id: 't1', type: 'x', severity: 'info', channel: 'chat_urgent', vibration_ms: '10000' });
    const wild = { ...message, notification: { ...message.notification, data: { push: { channel: 'bad channel!', vibration_ms: 3_600_000 } } } } as PushMessage;
    expect(pushData(wild)).toEqual({ notification_id: 'n1', tenant_id: 't1', type: 'x', severity: 'info', vibration_ms: '30000' });
  });
});
