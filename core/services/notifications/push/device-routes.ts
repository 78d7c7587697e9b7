/**
 * Device registration for push (spec 1, Notifications: "through the device-token registration"; the
 * spec leaves the endpoints to us). All need authentication and tenant context; a user manages only
 * their own devices.
 *
 *   POST   /push/devices          {platform: "ios"|"android", token, device_name?}
 *                                 {platform: "web", subscription: {endpoint, keys: {p256dh, auth}}, device_name?}
 *                                 (subscription is what a browser's PushSubscription.toJSON() gives)
 *                                 → 201 {device} when new, 200 {device} when the token was known
 *   GET    /push/devices          → {devices: [device]}
 *   DELETE /push/devices/{id}     → {message, id}
 *   GET    /push/web/vapid-public-key → {public_key} (the applicationServerKey), 404 when web push is off
 * A device in responses: {id, platform, device_name, created_at, updated_at}; its token stays on the server.
 */
import type { RequestHandler, Router } from 'express';
import type { Clock } from '../../../kernel/clock';
import { currentContext } from '../../../kernel/context';
import { notFound } from '../../../kernel/errors';
import { notificationErrors } from '../errors';
import * as Type from '../../../../sdk/runtime/schema';
import { BodyReader } from '../../../kernel/http/validate-body';
import { OutboundUrlError, checkOutboundUrl, type OutboundPolicy } from '../../../kernel/net/outbound-policy';
import { PUSH_PLATFORMS, type DeviceInput, type DeviceStore, type PushDevice } from './device-store';

export interface DeviceRouteDeps {
  devices: DeviceStore;
  authenticated: RequestHandler;
  clock: Clock;
  /** For checking browser endpoints: the server will POST to them. */
  endpointPolicy: OutboundPolicy;
  vapidPublicKey: string | undefined;
}

const shown = (d: PushDevice) => ({ id: d.id, platform: d.platform, device_name: d.device_name, created_at: d.created_at, updated_at: d.updated_at });

export function registerDeviceRoutes(api: Router, deps: DeviceRouteDeps): void {
  const { devices, authenticated } = deps;
  const who = () => {
    const ctx = currentContext()!;
    return { tenantId: ctx.tenant!.id, userId: ctx.user!.id };
  };

  api.post('/push/devices', authenticated, async (req, res) => {
    const { tenantId, userId } = who();
    const input = readDevice(req.body, deps.endpointPolicy);
    const { device, created } = await devices.register(tenantId, userId, input, deps.clock.date());
    res.status(created ? 201 : 200).json({ device: shown(device) });
  });

  api.get('/push/devices', authenticated, async (_req, res) => {
    const { tenantId, userId } = who();
    res.json({ devices: (await devices.listForUser(tenantId, userId)).map(shown) });
  });

  api.delete('/push/devices/:id', authenticated, async (req, res) => {
    const { tenantId, userId } = who();
    const id = String(req.params.id);
    if (!(await devices.deleteOwn(tenantId, userId, id))) throw notFound('Device not found.');
    res.json({ message: 'Device removed.', id });
  });

  api.get('/push/web/vapid-public-key', authenticated, (_req, res) => {
    if (!deps.vapidPublicKey) throw notificationErrors.webPushDisabled();
    res.json({ public_key: deps.vapidPublicKey });
  });
}

const DEVICE = {
  platform: Type.StringEnum(PUSH_PLATFORMS, { errorMessage: { enum: `The platform must be one of ${PUSH_PLATFORMS.join(', ')}.` } }),
  device_name: Type.Optional(Type.String({ maxLength: 255 })),
};
const TOKEN_DEVICE = Type.Object({ ...DEVICE, token: Type.String({ maxLength: 4096 }) });
/** The subscription is checked by hand below: its endpoint against the outbound policy, its keys by decoded length. */
const WEB_DEVICE = Type.Object(DEVICE);

function readDevice(raw: unknown, policy: OutboundPolicy): DeviceInput {
  if ((raw as { platform?: unknown } | null)?.platform !== 'web') {
    const { platform, token, device_name } = new BodyReader(raw, TOKEN_DEVICE).done();
    return { platform, token, keys: null, deviceName: device_name ?? null };
  }
  const body = new BodyReader(raw, WEB_DEVICE);
  const sub = (raw as { subscription?: unknown }).subscription as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } } | undefined;
  const endpoint = sub?.endpoint;
  if (typeof endpoint !== 'string' || endpoint.length > 2048) body.fail('subscription.endpoint', 'The subscription endpoint is required.');
  else {
    try {
      checkOutboundUrl(endpoint, policy);
    } catch (err) {
      if (!(err instanceof OutboundUrlError)) throw err;
      body.fail('subscription.endpoint', `The subscription endpoint ${err.message}.`);
    }
  }
  const p256dh = sub?.keys?.p256dh;
  const auth = sub?.keys?.auth;
  if (typeof p256dh !== 'string' || !isBase64Url(p256dh, 65)) body.fail('subscription.keys.p256dh', 'The p256dh key must be a base64url P-256 public key.');
  if (typeof auth !== 'string' || !isBase64Url(auth, 16)) body.fail('subscription.keys.auth', 'The auth secret must be 16 bytes in base64url.');
  const { device_name } = body.done();
  return { platform: 'web', token: endpoint as string, keys: { p256dh: p256dh as string, auth: auth as string }, deviceName: device_name ?? null };
}

function isBase64Url(value: string, bytes: number): boolean {
  return /^[A-Za-z0-9_-]+={0,2}$/.test(value) && Buffer.from(value, 'base64url').length === bytes;
}
