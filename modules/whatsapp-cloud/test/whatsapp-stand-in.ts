/**
 * A stand-in for Meta's WhatsApp Cloud API on 127.0.0.1 (used by this module's tests and the
 * orders notification-rule tests): POST /{version}/{phone_number_id}/messages with a bearer token,
 * text messages only. The number 919999999999 is outside its 24-hour window (Meta's error 131047).
 */
import { standIn } from '../../orders/test/support';

export interface WhatsAppMessage { to: string; body: string; preview_url: boolean }
export const OUTSIDE_WINDOW = '919999999999';

export async function whatsappStandIn(token: string, phoneNumberId: string, version = 'v21.0') {
  const messages: WhatsAppMessage[] = [];
  let n = 0;
  const metaError = (status: number, code: number, message: string, type = 'OAuthException'): [number, unknown] => [status, { error: { message, type, code, fbtrace_id: 'AbCdEf123' } }];
  const server = await standIn((req) => {
    if (req.method !== 'POST' || req.url !== `/${version}/${phoneNumberId}/messages`) return metaError(400, 100, 'Unsupported post request.', 'GraphMethodException');
    if (req.headers.authorization !== `Bearer ${token}`) return metaError(401, 190, 'Invalid OAuth access token - Cannot parse access token');
    const b = req.body ?? {};
    if (b.messaging_product !== 'whatsapp') return metaError(400, 100, '(#100) The parameter messaging_product is required.');
    if (b.type !== 'text' || typeof b.text?.body !== 'string' || b.text.body === '') return metaError(400, 100, '(#100) Param text[\'body\'] is required.');
    if (typeof b.to !== 'string' || !/^\d{10,15}$/.test(b.to)) return metaError(400, 131009, '(#131009) Parameter value is not valid');
    if (b.to === OUTSIDE_WINDOW) return metaError(400, 131047, 'Re-engagement message: more than 24 hours have passed since the customer last replied to this number.');
    messages.push({ to: b.to, body: b.text.body, preview_url: b.text.preview_url === true });
    n++;
    return [200, { messaging_product: 'whatsapp', contacts: [{ input: b.to, wa_id: b.to }], messages: [{ id: `wamid.HBgM${String(n).padStart(10, '0')}` }] }];
  });
  return { ...server, messages };
}
