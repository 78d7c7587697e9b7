/**
 * sms_msg91: SMS through MSG91 (the orders module's sms channel). Speaks MSG91's public Flow API
 * through host.fetch:
 *   POST {base}/api/v5/flow   header `authkey: <key>`
 *   {template_id, short_url: "0", recipients: [{mobiles: "91XXXXXXXXXX", <variable>: <value>, …}]}
 * answered {type: "success", message: <request id>} or {type: "error", message}.
 * Indian SMS must follow a DLT-registered template, so free text cannot be sent as is: the tenant
 * registers one template whose single variable carries the whole message (e.g. "##message##") and
 * configures its id and variable name here; `send` puts the text into that variable. The authkey is
 * a module secret, the rest host settings (`settings`, also at /api/v1/modules/sms_msg91/settings).
 * Declared here beside the handlers; `mandi module build` writes module.json from it.
 */
import { defineModule, moveIntoSecrets, moveIntoSettings, operation, secrets, settings, Type, type HandlerContext, type SettingsOf } from '../../../sdk';
import { msg91Errors } from './errors';

const DEFAULT_BASE = 'https://control.msg91.com';
type Config = { authkey: string; template_id: string; text_variable: string; base_url: string; default_country_code: string };
/** The host keeps these per tenant (the manifest's `settings`), the optional ones defaulted. */
const SETTINGS = {
  type: 'object',
  properties: {
    template_id: { type: 'string', minLength: 1, maxLength: 100, description: 'The id of the DLT-registered MSG91 template whose one variable carries the whole message.' },
    text_variable: { type: 'string', pattern: '^[A-Za-z0-9_]{1,50}$', default: 'message', description: 'The template variable that carries the text (e.g. "message" for ##message##).' },
    base_url: { type: 'string', pattern: '^https?://[^/]+$', default: DEFAULT_BASE, description: "MSG91's API origin; it must also be granted to sms_msg91 in modules.fetch_origins." },
    default_country_code: { type: 'string', pattern: '^[1-9][0-9]{0,3}$', default: '91', description: 'The country code a bare 10-digit number gets.' },
  },
} as const;

/** The settings; an earlier version's Setting rows move first (the authkey into the secrets, the rest into the settings), also at the schedule legacy_secrets for a tenant that makes no call. */
async function readSettings(ctx: HandlerContext): Promise<Partial<Omit<Config, 'authkey'>> & Omit<Config, 'authkey' | 'template_id'>> {
  const rows = await ctx.host.db.find<{ key: string; value: string }>('Setting', {});
  await moveIntoSecrets(ctx.host, 'Setting', rows, ['authkey']);
  await moveIntoSettings(ctx.host, 'Setting', rows, Object.keys(SETTINGS.properties));
  const c = await settings<SettingsOf<typeof SETTINGS>>(ctx.host).get();
  return { template_id: c.template_id ?? undefined, text_variable: c.text_variable ?? 'message', base_url: c.base_url ?? DEFAULT_BASE, default_country_code: c.default_country_code ?? '91' };
}

async function config(ctx: HandlerContext): Promise<Config> {
  const c = { ...(await readSettings(ctx)), authkey: await secrets(ctx.host).get('authkey') };
  if (!c.authkey || !c.template_id) throw msg91Errors.notConfigured();
  return { ...c, authkey: c.authkey, template_id: c.template_id };
}

/** "+91 98000-00000" → "919800000000"; a bare 10-digit number gets the default country code. */
export function msisdn(phone: string, countryCode: string): string {
  const digits = phone.replace(/[\s().-]/g, '').replace(/^\+/, '').replace(/^00/, '');
  if (!/^\d{10,15}$/.test(digits)) throw msg91Errors.invalidPhone(phone);
  return digits.length === 10 ? `${countryCode}${digits}` : digits;
}

/** What is configured; never the authkey itself. */
async function status(ctx: HandlerContext) {
  const c = { ...(await readSettings(ctx)), authkey: (await secrets(ctx.host).hint('authkey')) !== null };
  return {
    configured: Boolean(c.authkey && c.template_id), template_id: c.template_id ?? null, text_variable: c.text_variable,
    base_url: c.base_url, default_country_code: c.default_country_code,
  };
}

const Status = Type.Object({
  configured: Type.Boolean(),
  template_id: Type.Nullable(Type.String()),
  text_variable: Type.String(),
  base_url: Type.String(),
  default_country_code: Type.String(),
});

export default defineModule({
  name: 'sms_msg91',
  version: '1.3.0',
  description:
    'SMS through MSG91 (records name it sms-msg91): one DLT template whose variable carries the message, sent with MSG91\'s Flow API (POST /api/v5/flow, authkey header) through host.fetch.',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  permissions: [
    { name: 'sms_msg91.view', description: 'Use the SMS tools of AI agents: spec 2 (Tool discovery rule 2) infers sms_msg91.view from the names send and status; sending also needs sms_msg91.use, the status sms_msg91.manage.' },
    { name: 'sms_msg91.use', description: 'Send SMS through MSG91.' },
    { name: 'sms_msg91.manage', description: 'Configure the MSG91 key and template.' },
  ],
  settings: SETTINGS,
  secrets: [{ name: 'authkey', description: 'The MSG91 authkey (Dashboard → Authkey), sent in the authkey header.' }],
  // The scheduler runs a schedule at its slots only, none at install or upgrade: the period bounds how
  // long a 1.0 plaintext row outlives the upgrade in a tenant that never calls the module, and a run
  // with nothing left to move is one read.
  schedules: [{ name: 'legacy_secrets', operation: 'sms_msg91.move_legacy_secrets', every_ms: 900_000 }],
  operations: {
    // An AI tool (spec 2, Tools: Communications), needing sms_msg91.view (rule 2) and its own permission.
    send: operation({
      description: 'SMS contract: sends text to one mobile number; returns {id (MSG91 request id), to, status: "sent"}.',
      permission: 'sms_msg91.use',
      input: Type.Object(
        {
          to: Type.String({
            minLength: 5,
            maxLength: 30,
            description: 'mobile number: +<country code><number>, or 10 digits (the default country code is added)',
          }),
          text: Type.String({ minLength: 1, maxLength: 2000 }),
          template_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'another MSG91 template than the configured one' })),
          variables: Type.Optional(
            Type.Object({}, { additionalProperties: Type.String({ maxLength: 500 }), maxProperties: 20, description: 'further template variables' }),
          ),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ id: Type.String(), to: Type.Optional(Type.String()), status: Type.String() }),
      async handler(input, ctx) {
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
        throw msg91Errors.vendor(res.status, String(parsed?.message ?? res.body.slice(0, 200)));
      },
    }),
    configure: operation({
      ai_tool: false,
      description:
        "Sets the tenant's MSG91 authkey, template id, the template variable that carries the text, the API base URL (its origin must also be granted to sms_msg91 in the tenant setting modules.fetch_origins) and the default country code.",
      permission: 'sms_msg91.manage',
      input: Type.Object(
        {
          authkey: Type.String({ minLength: 1, maxLength: 200 }),
          template_id: Type.String({ minLength: 1, maxLength: 100 }),
          text_variable: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_]{1,50}$', default: 'message' })),
          base_url: Type.Optional(Type.String({ pattern: '^https?://[^/]+$', default: DEFAULT_BASE })),
          default_country_code: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', default: '91' })),
        },
        { additionalProperties: false },
      ),
      output: Status,
      http: { method: 'PUT', path: '/sms-msg91/settings' },
      async handler(input, ctx) {
        await readSettings(ctx); // an earlier version's rows go first, so none outlives this change
        const { authkey: _authkey, ...values } = input;
        await settings<SettingsOf<typeof SETTINGS>>(ctx.host).set(values);
        await secrets(ctx.host).set('authkey', input.authkey);
        return status(ctx);
      },
    }),
    move_legacy_secrets: operation({
      ai_tool: false,
      graphql_expose: false,
      description: 'Schedule (every 15 minutes): moves what earlier versions kept in the Setting table into the module secrets (authkey) and settings (the rest); one read once none is left.',
      permission: 'sms_msg91.manage',
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ checked: Type.Literal(true) }, { description: 'The Setting rows were read and every one of them moved.' }),
      async handler(_input, ctx) {
        await readSettings(ctx);
        return { checked: true as const };
      },
    }),
    // An AI tool (spec 2, Tools: Communications): the settings' state, never the secret.
    status: operation({
      description: 'Whether the tenant configured MSG91 (template, variable, base URL; never the authkey).',
      permission: 'sms_msg91.manage',
      input: Type.Object({}, { additionalProperties: false }),
      output: Status,
      http: { method: 'GET', path: '/sms-msg91/settings' },
      handler: (_input, ctx) => status(ctx),
    }),
  },
  data: {
    models: {
      // Only what earlier versions left: readSettings moves each row into the secrets or settings and deletes it.
      Setting: {
        table: 'settings',
        columns: {
          key: { type: 'string', length: 50, primaryKey: true },
          value: { type: 'text', nullable: false },
        },
      },
    },
  },
  limits: { memory_mb: 32, timeout_ms: 15000 },
});
