/**
 * whatsapp_cloud: WhatsApp messages through Meta's WhatsApp Cloud API (the orders module's whatsapp
 * channel), through host.fetch:
 *   POST {base}/{version}/{phone_number_id}/messages   Authorization: Bearer <access token>
 *   {messaging_product: "whatsapp", recipient_type: "individual", to, type: "text", text: {body, preview_url}}
 * answered {messaging_product, contacts: [{input, wa_id}], messages: [{id: "wamid…"}]} or
 * {error: {message, type, code, fbtrace_id}}. WhatsApp delivers free-form text only inside the
 * 24-hour customer service window; outside it Meta refuses the message (error 131047), which
 * reaches the caller as WHATSAPP_ERROR with Meta's code. The access token is a module secret, the
 * rest host settings (`settings`, also at /api/v1/modules/whatsapp_cloud/settings). Declared here
 * beside the handlers; `mandi module build` writes module.json from it.
 */
import { defineModule, moveIntoSecrets, moveIntoSettings, operation, secrets, settings, Type, type HandlerContext, type SettingsOf } from '../../../sdk';
import { whatsappErrors } from './errors';

const DEFAULT_BASE = 'https://graph.facebook.com';
const DEFAULT_VERSION = 'v21.0';
type Config = { access_token: string; phone_number_id: string; api_version: string; base_url: string; default_country_code: string };
/** The host keeps these per tenant (the manifest's `settings`), the optional ones defaulted. */
const SETTINGS = {
  type: 'object',
  properties: {
    phone_number_id: { type: 'string', pattern: '^[0-9]{1,30}$', description: 'The id of the WhatsApp Business phone number the messages are sent from.' },
    api_version: { type: 'string', pattern: '^v[0-9]{1,3}\\.[0-9]{1,2}$', default: DEFAULT_VERSION, description: 'The Graph API version, e.g. "v21.0".' },
    base_url: { type: 'string', pattern: '^https?://[^/]+$', default: DEFAULT_BASE, description: "The Graph API's origin; it must also be granted to whatsapp_cloud in modules.fetch_origins." },
    default_country_code: { type: 'string', pattern: '^[1-9][0-9]{0,3}$', default: '91', description: 'The country code a bare 10-digit number gets.' },
  },
} as const;

/** The settings; an earlier version's Setting rows move first (the access token into the secrets, the rest into the settings), also at the schedule legacy_secrets for a tenant that makes no call. */
async function readSettings(ctx: HandlerContext): Promise<Partial<Omit<Config, 'access_token'>> & Omit<Config, 'access_token' | 'phone_number_id'>> {
  const rows = await ctx.host.db.find<{ key: string; value: string }>('Setting', {});
  await moveIntoSecrets(ctx.host, 'Setting', rows, ['access_token']);
  await moveIntoSettings(ctx.host, 'Setting', rows, Object.keys(SETTINGS.properties));
  const c = await settings<SettingsOf<typeof SETTINGS>>(ctx.host).get();
  return { phone_number_id: c.phone_number_id ?? undefined, api_version: c.api_version ?? DEFAULT_VERSION, base_url: c.base_url ?? DEFAULT_BASE, default_country_code: c.default_country_code ?? '91' };
}

async function config(ctx: HandlerContext): Promise<Config> {
  const c = { ...(await readSettings(ctx)), access_token: await secrets(ctx.host).get('access_token') };
  if (!c.access_token || !c.phone_number_id) {
    throw whatsappErrors.notConfigured();
  }
  return { ...c, access_token: c.access_token, phone_number_id: c.phone_number_id };
}

/** "+91 98000-00000" → "919800000000" (WhatsApp wants digits with the country code). */
export function waNumber(phone: string, countryCode: string): string {
  const digits = phone.replace(/[\s().-]/g, '').replace(/^\+/, '').replace(/^00/, '');
  if (!/^\d{10,15}$/.test(digits)) throw whatsappErrors.invalidPhone(phone);
  return digits.length === 10 ? `${countryCode}${digits}` : digits;
}

/** What is configured; never the token. */
async function status(ctx: HandlerContext) {
  const c = { ...(await readSettings(ctx)), access_token: (await secrets(ctx.host).hint('access_token')) !== null };
  return {
    configured: Boolean(c.access_token && c.phone_number_id), phone_number_id: c.phone_number_id ?? null, api_version: c.api_version,
    base_url: c.base_url, default_country_code: c.default_country_code,
  };
}

type MetaAnswer = { messages?: Array<{ id?: string }>; contacts?: Array<{ wa_id?: string }>; error?: { message?: string; code?: number; type?: string } };

const Status = Type.Object({
  configured: Type.Boolean(),
  phone_number_id: Type.Nullable(Type.String()),
  api_version: Type.String(),
  base_url: Type.String(),
  default_country_code: Type.String(),
});

export default defineModule({
  name: 'whatsapp_cloud',
  version: '1.3.0',
  description:
    "WhatsApp through Meta's WhatsApp Cloud API (records name it whatsapp-cloud): text messages with POST /{version}/{phone_number_id}/messages and a bearer token, through host.fetch.",
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  permissions: [
    { name: 'whatsapp_cloud.view', description: 'Use the WhatsApp tools of AI agents: spec 2 (Tool discovery rule 2) infers whatsapp_cloud.view from the names send and status; sending also needs whatsapp_cloud.use, the status whatsapp_cloud.manage.' },
    { name: 'whatsapp_cloud.use', description: 'Send WhatsApp messages.' },
    { name: 'whatsapp_cloud.manage', description: 'Configure the WhatsApp Cloud token and number.' },
  ],
  settings: SETTINGS,
  secrets: [{ name: 'access_token', description: 'A permanent access token of a Meta system user with whatsapp_business_messaging on the number, sent as the bearer token.' }],
  // The scheduler runs a schedule at its slots only, none at install or upgrade: the period bounds how
  // long a 1.0 plaintext row outlives the upgrade in a tenant that never calls the module, and a run
  // with nothing left to move is one read.
  schedules: [{ name: 'legacy_secrets', operation: 'whatsapp_cloud.move_legacy_secrets', every_ms: 900_000 }],
  operations: {
    // An AI tool (spec 2, Tools: Communications), needing whatsapp_cloud.view (rule 2) and its own permission.
    send: operation({
      description: 'WhatsApp contract: sends a text message to one number; returns {id (wamid), to, status: "sent"}.',
      permission: 'whatsapp_cloud.use',
      input: Type.Object(
        {
          to: Type.String({
            minLength: 5,
            maxLength: 30,
            description: 'mobile number: +<country code><number>, or 10 digits (the default country code is added)',
          }),
          text: Type.String({ minLength: 1, maxLength: 4096 }),
          preview_url: Type.Optional(Type.Boolean({ default: false })),
        },
        { additionalProperties: false },
      ),
      output: Type.Object({ id: Type.String(), to: Type.Optional(Type.String()), status: Type.String() }),
      async handler(input, ctx) {
        const c = await config(ctx);
        const to = waNumber(input.to, c.default_country_code);
        const res = await ctx.host.fetch(`${c.base_url}/${c.api_version}/${encodeURIComponent(c.phone_number_id)}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${c.access_token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'text', text: { preview_url: input.preview_url ?? false, body: input.text } }),
        });
        let parsed: MetaAnswer | null = null;
        try {
          parsed = JSON.parse(res.body);
        } catch {
          /* not JSON: reported below */
        }
        const id = parsed?.messages?.[0]?.id;
        if (res.status >= 200 && res.status < 300 && id) return { id, to: parsed?.contacts?.[0]?.wa_id ?? to, status: 'sent' };
        throw whatsappErrors.vendor(res.status, parsed?.error?.message ?? res.body.slice(0, 200), parsed?.error?.code ?? null);
      },
    }),
    configure: operation({
      ai_tool: false,
      description: "Sets the tenant's access token, phone number id, Graph API version, API base URL (its origin must also be granted to whatsapp_cloud in the tenant setting modules.fetch_origins) and default country code.",
      permission: 'whatsapp_cloud.manage',
      input: Type.Object(
        {
          access_token: Type.String({ minLength: 1, maxLength: 1000 }),
          phone_number_id: Type.String({ pattern: '^[0-9]{1,30}$' }),
          api_version: Type.Optional(Type.String({ pattern: '^v[0-9]{1,3}\\.[0-9]{1,2}$', default: DEFAULT_VERSION })),
          base_url: Type.Optional(Type.String({ pattern: '^https?://[^/]+$', default: DEFAULT_BASE })),
          default_country_code: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', default: '91' })),
        },
        { additionalProperties: false },
      ),
      output: Status,
      http: { method: 'PUT', path: '/whatsapp-cloud/settings' },
      async handler(input, ctx) {
        await readSettings(ctx); // an earlier version's rows go first, so none outlives this change
        const { access_token: _token, ...values } = input;
        await settings<SettingsOf<typeof SETTINGS>>(ctx.host).set(values);
        await secrets(ctx.host).set('access_token', input.access_token);
        return status(ctx);
      },
    }),
    move_legacy_secrets: operation({
      ai_tool: false,
      graphql_expose: false,
      description: 'Schedule (every 15 minutes): moves what earlier versions kept in the Setting table into the module secrets (access_token) and settings (the rest); one read once none is left.',
      permission: 'whatsapp_cloud.manage',
      input: Type.Object({ schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) }, { additionalProperties: true }),
      output: Type.Object({ checked: Type.Literal(true) }, { description: 'The Setting rows were read and every one of them moved.' }),
      async handler(_input, ctx) {
        await readSettings(ctx);
        return { checked: true as const };
      },
    }),
    // An AI tool (spec 2, Tools: Communications): the settings' state, never the secret.
    status: operation({
      description: 'Whether the tenant configured WhatsApp Cloud (phone number id, version, base URL; never the token).',
      permission: 'whatsapp_cloud.manage',
      input: Type.Object({}, { additionalProperties: false }),
      output: Status,
      http: { method: 'GET', path: '/whatsapp-cloud/settings' },
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
