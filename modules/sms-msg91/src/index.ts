/**
 * sms_msg91: SMS through MSG91 (the orders module's sms channel). Speaks MSG91's public Flow API
 * through host.fetch:
 *   POST {base}/api/v5/flow   header `authkey: <key>`
 *   {template_id, short_url: "0", recipients: [{mobiles: "91XXXXXXXXXX", <variable>: <value>, …}]}
 * answered {type: "success", message: <request id>} or {type: "error", message}.
 * Indian SMS must follow a DLT-registered template, so free text cannot be sent as is: the tenant
 * registers one template whose single variable carries the whole message (e.g. "##message##") and
 * configures its id and variable name here; `send` puts the text into that variable.
 */
import { defineModule, type HandlerContext } from '../../../sdk';

class Msg91Error extends Error {
  constructor(readonly code: string, message: string, readonly details: { status: number } & Record<string, unknown>) {
    super(message);
  }
}

const DEFAULT_BASE = 'https://control.msg91.com';
type Config = { authkey: string; template_id: string; text_variable: string; base_url: string; default_country_code: string };
const KEYS = ['authkey', 'template_id', 'text_variable', 'base_url', 'default_country_code'] as const;

/** The stored settings, the optional ones defaulted. */
async function readSettings(ctx: HandlerContext): Promise<Partial<Config> & Omit<Config, 'authkey' | 'template_id'>> {
  const rows = await ctx.host.db.find<{ key: string; value: string }>('Setting', {});
  const c = Object.fromEntries(rows.map((r) => [r.key, r.value])) as Partial<Config>;
  return { ...c, text_variable: c.text_variable ?? 'message', base_url: c.base_url ?? DEFAULT_BASE, default_country_code: c.default_country_code ?? '91' };
}

async function config(ctx: HandlerContext): Promise<Config> {
  const c = await readSettings(ctx);
  if (!c.authkey || !c.template_id) throw new Msg91Error('PROVIDER_NOT_CONFIGURED', 'MSG91 is not configured for this tenant: PUT /sms-msg91/settings.', { status: 422 });
  return { ...c, authkey: c.authkey, template_id: c.template_id };
}

/** "+91 98000-00000" → "919800000000"; a bare 10-digit number gets the default country code. */
export function msisdn(phone: string, countryCode: string): string {
  const digits = phone.replace(/[\s().-]/g, '').replace(/^\+/, '').replace(/^00/, '');
  if (!/^\d{10,15}$/.test(digits)) throw new Msg91Error('INVALID_PHONE', `"${phone}" is not a phone number (10 to 15 digits, optionally with + and country code).`, { status: 422, errors: { to: ['not a phone number'] } });
  return digits.length === 10 ? `${countryCode}${digits}` : digits;
}

/** What is configured; never the authkey itself. */
async function status(ctx: HandlerContext) {
  const c = await readSettings(ctx);
  return {
    configured: Boolean(c.authkey && c.template_id), template_id: c.template_id ?? null, text_variable: c.text_variable,
    base_url: c.base_url, default_country_code: c.default_country_code,
  };
}

type SendIn = { to: string; text: string; template_id?: string; variables?: Record<string, string> };

export default defineModule({
  operations: {
    async send(input: SendIn, ctx) {
      const c = await config(ctx);
      const mobiles = msisdn(input.to, c.default_country_code);
      const recipient = { ...(input.variables ?? {}), [c.text_variable]: input.text, mobiles };
      const res = await ctx.host.fetch(`${c.base_url}/api/v5/flow`, {
        method: 'POST',
        headers: { authkey: c.authkey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ template_id: input.template_id ?? c.template_id, short_url: '0', recipients: [recipient] }),
      });
      let parsed: { type?: string; message?: string } | null = null;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        /* not JSON: reported below */
      }
      // MSG91 may answer 200 with type "error": both the status and the type must say success.
      if (res.status >= 200 && res.status < 300 && parsed?.type === 'success') return { id: String(parsed.message ?? ''), to: mobiles, status: 'sent' };
      throw new Msg91Error('MSG91_ERROR', `MSG91 answered ${res.status}: ${parsed?.message ?? res.body.slice(0, 200)}`, {
        status: res.status === 401 || res.status >= 500 ? 502 : 422, msg91_status: res.status,
      });
    },
    async configure(input: Partial<Config> & { authkey: string; template_id: string }, ctx) {
      await ctx.host.db.transaction(async (tx) => {
        for (const key of KEYS) if (input[key] !== undefined) await tx.upsert('Setting', { key, value: input[key] });
      });
      return status(ctx);
    },
    status: (_input: unknown, ctx) => status(ctx),
  },
});
