/**
 * A stand-in for MSG91's Flow API on 127.0.0.1 (used by this module's tests and the orders
 * notification-rule tests): POST /api/v5/flow with the `authkey` header; it knows one template
 * whose variable `message` must be given, and keeps every SMS it accepted. `failNext(...statuses)`
 * makes the next requests answer those HTTP statuses (e.g. 503 while MSG91 is down), in order.
 */
import { standIn } from '../../orders/test/support';

export interface Msg91Sms { template_id: string; mobiles: string; variables: Record<string, string> }

export async function msg91StandIn(authkey: string, templateId: string) {
  const sms: Msg91Sms[] = [];
  let n = 0;
  const failures: number[] = [];
  const server = await standIn((req) => {
    if (req.method !== 'POST' || !/^\/api\/v5\/flow\/?$/.test(req.url)) return [404, { type: 'error', message: 'Not found' }];
    const failure = failures.shift();
    if (failure !== undefined) return [failure, { type: 'error', message: 'Service Unavailable' }];
    if (req.headers.authkey !== authkey) return [401, { type: 'error', message: 'Authentication failure', code: '401' }];
    const b = req.body ?? {};
    // MSG91 reports a wrong template with HTTP 200 and type "error".
    if (b.template_id !== templateId) return [200, { type: 'error', message: 'Template ID is invalid' }];
    if (!Array.isArray(b.recipients) || b.recipients.length === 0) return [400, { type: 'error', message: 'recipients is required' }];
    for (const r of b.recipients) {
      if (typeof r.mobiles !== 'string' || !/^\d{11,15}$/.test(r.mobiles)) return [400, { type: 'error', message: 'Mobile number is invalid' }];
      if (typeof r.message !== 'string' || r.message === '') return [400, { type: 'error', message: 'Template variable message is missing' }];
    }
    for (const { mobiles, ...variables } of b.recipients) sms.push({ template_id: b.template_id, mobiles, variables });
    n++;
    return [200, { type: 'success', message: `3763646c30583735${String(n).padStart(8, '0')}` }];
  });
  return { ...server, sms, failNext: (...statuses: number[]) => void failures.push(...statuses) };
}
