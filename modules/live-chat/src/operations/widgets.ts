/** Widgets (spec 2, Live chat: /live-chat/widgets…): settings with the spec's defaults, a 32-character token the host makes, embed code. */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { businessHoursProblem } from '../business-hours';
import { widgetById } from '../db';
import { validation } from '../errors';
import { checkHandler } from '../handlers';
import { nowIso, type TeamRow, type WidgetRow } from '../records';
import { Widget } from '../outputs';
import { Id, widgetFields } from '../schemas';

const MANAGE = 'live_chat.manage';
const VIEW = 'live_chat.view';
const NOT_TOOL = { ai_tool: false } as const;

const WidgetInput = Type.Object({ ...widgetFields }, { additionalProperties: false });
const WidgetCreate = Type.Composite([Type.Object({ name: widgetFields.name }), Type.Partial(Type.Omit(WidgetInput, ['name']))], { additionalProperties: false });
const WidgetUpdate = Type.Composite([Type.Object({ id: Id }), Type.Partial(WidgetInput)], { additionalProperties: false });
type WidgetSettings = Partial<Omit<WidgetRow, 'id' | 'token' | 'tenant_id' | 'created_at' | 'updated_at'>>;

const DEFAULT_OFFLINE = "We're away right now. Leave a message and we'll get back to you by email.";

/**
 * The settings as they will be saved over `current` (none on create): business hours well formed,
 * and a bot or workflow handler able to run (checked when the handler or its workflow changes).
 */
async function checked(ctx: HandlerContext, settings: WidgetSettings, current?: WidgetRow): Promise<WidgetSettings> {
  const problem = businessHoursProblem(settings.business_hours);
  if (problem) throw validation('business_hours', problem);
  // Its conversations go to this team's queue (README, Teams): a team of this tenant.
  if (settings.team_id != null && !(await ctx.host.db.findOne<TeamRow>('Team', { where: { id: settings.team_id } }))) throw validation('team_id', `Team ${settings.team_id} not found.`);
  if (!current || settings.handler_type !== undefined || settings.workflow_id !== undefined) {
    await checkHandler(ctx, { handler_type: settings.handler_type ?? current?.handler_type ?? 'agent', workflow_id: settings.workflow_id ?? current?.workflow_id ?? null });
  }
  return settings;
}

async function newToken(ctx: HandlerContext, label: string): Promise<string> {
  const { token } = await ctx.host.call<{ token: string }>('public_tokens.register', { label });
  return token;
}

export const widgetOperations = {
  list_widgets: operation({
    description: 'Every chat widget of the tenant with its settings and token.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ is_active: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Widget) }),
    http: { method: 'GET', path: '/live-chat/widgets' },
    handler: async (input, ctx) => ({
      data: await ctx.host.db.find<WidgetRow>('Widget', { where: input.is_active === undefined ? {} : { is_active: input.is_active }, order: [['id', 'ASC']], limit: 1000 }),
    }),
  }),
  create_widget: operation({
    description: 'Creates a chat widget (spec 2 defaults for every setting left out) with a new 32-character token.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: WidgetCreate,
    output: Widget,
    http: { method: 'POST', path: '/live-chat/widgets', success_status: 201 },
    handler: async (input, ctx) => {
      const settings = await checked(ctx, input as WidgetSettings);
      const token = await newToken(ctx, `widget ${input.name}`);
      const now = nowIso(ctx);
      return ctx.host.db.create<WidgetRow>('Widget', {
        offline_message: DEFAULT_OFFLINE,
        allowed_domains: [],
        ...settings,
        token,
        tenant_id: ctx.tenantId,
        created_at: now,
        updated_at: now,
      });
    },
  }),
  get_widget: operation({
    description: 'One chat widget.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Widget,
    http: { method: 'GET', path: '/live-chat/widgets/:id' },
    handler: async (input, ctx) => widgetById(ctx, input.id),
  }),
  update_widget: operation({
    description: "Changes a widget's settings (only the fields given).",
    permission: MANAGE,
    ...NOT_TOOL,
    input: WidgetUpdate,
    output: Widget,
    http: { method: 'PUT', path: '/live-chat/widgets/:id' },
    handler: async (input, ctx) => {
      const { id, ...settings } = input;
      const current = await widgetById(ctx, id);
      await ctx.host.db.update<WidgetRow>('Widget', { ...(await checked(ctx, settings as WidgetSettings, current)), updated_at: nowIso(ctx) }, { where: { id } });
      return widgetById(ctx, id);
    },
  }),
  delete_widget: operation({
    description: 'Deletes a widget; its token stops working at once. Its conversations stay.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Type.Object({ deleted: Type.Boolean(), id: Type.Integer() }),
    http: { method: 'DELETE', path: '/live-chat/widgets/:id' },
    handler: async (input, ctx) => {
      const widget = await widgetById(ctx, input.id);
      await ctx.host.call('public_tokens.revoke', { token: widget.token });
      await ctx.host.db.destroy('Widget', { where: { id: input.id } });
      return { deleted: true, id: input.id };
    },
  }),
  toggle_widget: operation({
    description: 'Switches a widget on or off (an inactive widget shows nothing on pages).',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Widget,
    http: { method: 'POST', path: '/live-chat/widgets/:id/toggle-active', success_status: 200 },
    handler: async (input, ctx) => {
      const widget = await widgetById(ctx, input.id);
      await ctx.host.db.update<WidgetRow>('Widget', { is_active: !widget.is_active, updated_at: nowIso(ctx) }, { where: { id: input.id, is_active: widget.is_active } });
      return widgetById(ctx, input.id);
    },
  }),
  regenerate_token: operation({
    description: 'Gives a widget a new token; pages with the old embed code stop showing it.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Widget,
    http: { method: 'POST', path: '/live-chat/widgets/:id/regenerate-token', success_status: 200 },
    handler: async (input, ctx) => {
      const widget = await widgetById(ctx, input.id);
      const token = await newToken(ctx, `widget ${widget.name}`);
      await ctx.host.db.update<WidgetRow>('Widget', { token, updated_at: nowIso(ctx) }, { where: { id: input.id } });
      await ctx.host.call('public_tokens.revoke', { token: widget.token });
      return widgetById(ctx, input.id);
    },
  }),
  embed_code: operation({
    description: "The HTML snippet a site pastes before </body> to show the widget.",
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, base_url: Type.Optional(Type.String({ maxLength: 200, pattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$' })) }, { additionalProperties: false }),
    output: Type.Object({ embed_code: Type.String(), script_url: Type.String(), token: Type.String() }),
    http: { method: 'GET', path: '/live-chat/widgets/:id/embed-code' },
    handler: async (input, ctx) => {
      const widget = await widgetById(ctx, input.id);
      const base = input.base_url ?? (await platformBase(ctx));
      const scriptUrl = `${base}/api/widget/${widget.token}/script.js`;
      return { embed_code: `<script src="${scriptUrl}" async></script>`, script_url: scriptUrl, token: widget.token };
    },
  }),
};

/**
 * Where pages reach the platform: the tenant's public URL the host derives from APP_URL (its scheme
 * and port, on the tenant's subdomain where ROOT_DOMAIN makes one; README, Embed code).
 */
async function platformBase(ctx: HandlerContext): Promise<string> {
  return (await ctx.host.call<{ url: string }>('platform.get_tenant', {})).url;
}
