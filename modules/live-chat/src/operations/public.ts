/**
 * The public widget endpoints (spec 2: /api/widget/{token}/…, no authentication; the token names the
 * widget and, through the host, the tenant). Decided where the spec is silent (README):
 * - A page's origin must be in the widget's allowed_domains: the host's CORS asks allow_origin, and
 *   every handler checks `Origin` itself too (a form POST from another site needs no preflight);
 *   script.js checks `Referer`. Requests with neither header (servers, curl) are not pages and pass.
 * - Every call after POST /session carries session_id, and a conversation id is answered only for
 *   the session's own conversations of this widget: any other id is the same 404 as a missing one.
 * - Rate limits: the host's per token and client address (`rate_limit` on each route), plus the
 *   module's own per widget and per visitor, counted in the tables (limits.ts).
 * - Answers hold only visitor-facing fields; internal notes are never read here.
 */
import { operation, realtime, Type, type HandlerContext } from '../../../../sdk';
import { isOpen } from '../business-hours';
import { OPEN, startConversation, visitorWrites } from '../conversations';
import { conversationById } from '../db';
import { chatErrors, conversationNotFound, originNotAllowed, validation, widgetInactive } from '../errors';
import { conversationChannel, conversationUpdated } from '../broadcast';
import { checkConversationRate, checkMessageRate, recentVisitorMessages } from '../limits';
import { originAllowed, refererOrigin } from '../origins';
import { nowIso, visitorConversation, visitorMessage, type AgentRow, type ConversationRow, type MessageRow, type VisitorRow, type WidgetRow } from '../records';
import { VisitorConversation, VisitorMessage, Widget } from '../outputs';
import { Content, Id, LIMITS, PublicBase, SessionId } from '../schemas';
import { typing } from '../typing';
import { widgetScript } from '../widget-script';

export const PREFIXED = { ai_tool: false, graphql_expose: false } as const;
export const CORS = { operation: 'live_chat.allow_origin' };
/** A visitor grant lasts a day at most (the host's limit); the widget asks for a new one on reconnect. */
const GRANT_TTL_SECONDS = 86_400;

type RequestInfo = { headers?: Record<string, string | undefined>; ip?: string | null };
const requestOf = (input: { _request?: unknown }) => (input._request ?? {}) as RequestInfo;

/** The token's widget, active, and called from an allowed page (by Origin). */
export async function widgetFor(ctx: HandlerContext, input: { token: string; _request?: unknown }): Promise<WidgetRow> {
  const widget = await ctx.host.db.findOne<WidgetRow>('Widget', { where: { token: input.token } });
  if (!widget) throw chatErrors.widgetNotFound();
  if (!widget.is_active) throw widgetInactive();
  const origin = requestOf(input).headers?.origin;
  if (origin !== undefined && !originAllowed(widget.allowed_domains, origin)) throw originNotAllowed();
  return widget;
}

const { sessionNotFound } = chatErrors;

/** The session's visitor of this widget; an unknown session is 404 like a missing conversation. */
export async function visitorFor(ctx: HandlerContext, widget: WidgetRow, sessionId: string): Promise<VisitorRow> {
  const visitor = await ctx.host.db.findOne<VisitorRow>('Visitor', { where: { session_id: sessionId, widget_id: widget.id } });
  if (!visitor) throw sessionNotFound();
  return visitor;
}

/** One of the visitor's own conversations of this widget, else the same 404 as a missing one. */
export async function ownConversation(ctx: HandlerContext, widget: WidgetRow, visitor: VisitorRow, id: number): Promise<ConversationRow> {
  const c = await ctx.host.db.findOne<ConversationRow>('Conversation', { where: { id, visitor_id: visitor.id, widget_id: widget.id } });
  if (!c) throw conversationNotFound(id);
  return c;
}

const grantFor = (ctx: HandlerContext, visitor: VisitorRow, conversationIds: number[]) =>
  realtime(ctx.host).grantVisitor(`v${visitor.id}`, conversationIds.map(conversationChannel), GRANT_TTL_SECONDS);

function checkMetadata(metadata: unknown) {
  if (metadata !== undefined && JSON.stringify(metadata).length > LIMITS.metadataBytes) throw validation('metadata', `metadata may hold at most ${LIMITS.metadataBytes} bytes of JSON.`);
}

/** The widget's public settings (no token, domains or handler) and whether the business is open now. */
const WidgetConfig = Type.Composite([
  Type.Pick(Widget, ['name', 'primary_color', 'text_color', 'position', 'border_radius', 'launcher_size', 'launcher_icon', 'logo_url', 'welcome_title', 'welcome_message', 'input_placeholder', 'offline_message', 'collect_name', 'collect_email', 'sound_enabled', 'show_branding']),
  Type.Object({ online: Type.Boolean() }),
]);

export const Session = { ...PublicBase, session_id: SessionId };

export const publicOperations = {
  allow_origin: operation({
    description: "Whether a page on `origin` may call the widget's public routes (its allowed_domains; the host's CORS check).",
    ...PREFIXED,
    input: Type.Object({ token: Type.String(), origin: Type.String() }),
    output: Type.Object({ allow: Type.Boolean() }),
    handler: async ({ token, origin }, ctx) => {
      const widget = await ctx.host.db.findOne<WidgetRow>('Widget', { where: { token } });
      return { allow: !!widget && widget.is_active && originAllowed(widget.allowed_domains, origin) };
    },
  }),
  widget_script: operation({
    description: 'The embeddable widget script (GET /api/widget/{token}/script.js); refused for pages outside allowed_domains.',
    ...PREFIXED,
    input: Type.Object(PublicBase, { additionalProperties: true }),
    output: Type.String(),
    public_http: { method: 'GET', path: '/:token/script.js', token: 'token', rate_limit: '120/60', response: { kind: 'text', content_type: 'application/javascript' } },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const page = refererOrigin(requestOf(input).headers?.referer);
      if (widget.allowed_domains.length && !originAllowed(widget.allowed_domains, page)) throw originNotAllowed();
      return widgetScript(widget.token);
    },
  }),
  widget_config: operation({
    description: "The widget's public settings and whether the business is open now (business hours).",
    ...PREFIXED,
    input: Type.Object(PublicBase, { additionalProperties: true }),
    output: WidgetConfig,
    public_http: { method: 'GET', path: '/:token/config', token: 'token', rate_limit: '120/60', cors: CORS },
    handler: async (input, ctx) => {
      const w = await widgetFor(ctx, input);
      const online = isOpen(w.business_hours, ctx.host.now());
      return {
        name: w.name,
        primary_color: w.primary_color,
        text_color: w.text_color,
        position: w.position,
        border_radius: w.border_radius,
        launcher_size: w.launcher_size,
        launcher_icon: w.launcher_icon,
        logo_url: w.logo_url,
        welcome_title: w.welcome_title,
        welcome_message: w.welcome_message,
        input_placeholder: w.input_placeholder,
        offline_message: w.offline_message,
        collect_name: w.collect_name,
        collect_email: w.collect_email,
        sound_enabled: w.sound_enabled,
        show_branding: w.show_branding,
        online,
      };
    },
  }),
  start_session: operation({
    description: 'Starts (or resumes, given session_id) a visitor session: {session_id, visitor_id, tenant, conversation_id, grant}.',
    ...PREFIXED,
    input: Type.Object(
      {
        ...PublicBase,
        session_id: Type.Optional(SessionId),
        name: Type.Optional(Type.String({ maxLength: LIMITS.nameChars })),
        email: Type.Optional(Type.String({ maxLength: 254, format: 'email' })),
        phone: Type.Optional(Type.String({ maxLength: 30, pattern: '^[0-9+() -]*$' })),
        current_page: Type.Optional(Type.String({ maxLength: LIMITS.pageChars })),
      },
      { additionalProperties: true },
    ),
    output: Type.Object({ session_id: Type.String(), visitor_id: Type.Integer(), tenant: Type.String(), conversation_id: Type.Nullable(Type.Integer()), grant: Type.Nullable(Type.String()), grant_expires_at: Type.Nullable(Type.String()) }),
    public_http: { method: 'POST', path: '/:token/session', token: 'token', rate_limit: '20/60', cors: CORS, success_status: 200 },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const req = requestOf(input);
      const now = nowIso(ctx);
      const seen = {
        last_seen_at: now,
        ...(input.current_page ? { current_page: input.current_page } : {}),
        ...(input.name ? { name: input.name.trim() } : {}),
        ...(input.email ? { email: input.email.trim().toLowerCase() } : {}),
        ...(input.phone ? { phone: input.phone } : {}),
      };
      let visitor = input.session_id ? await ctx.host.db.findOne<VisitorRow>('Visitor', { where: { session_id: input.session_id, widget_id: widget.id } }) : null;
      if (visitor) await ctx.host.db.update<VisitorRow>('Visitor', seen, { where: { id: visitor.id } });
      else {
        if (widget.collect_name && !input.name?.trim()) throw validation('name', 'Please give your name.');
        if (widget.collect_email && !input.email) throw validation('email', 'Please give your email.');
        const { token: sessionId } = await ctx.host.call<{ token: string }>('platform.random_token', { bytes: 24 });
        visitor = await ctx.host.db.create<VisitorRow>('Visitor', {
          session_id: sessionId,
          widget_id: widget.id,
          ip_address: req.ip ? String(req.ip).slice(0, 45) : null,
          user_agent: req.headers?.['user-agent']?.slice(0, 500) ?? null,
          referrer: req.headers?.referer?.slice(0, 2048) ?? null,
          first_seen_at: now,
          ...seen,
        });
      }
      const open = await ctx.host.db.find<ConversationRow>('Conversation', { where: { visitor_id: visitor.id, status: { $in: [...OPEN] } }, order: [['id', 'DESC']], limit: 20 });
      const grant = open.length ? await grantFor(ctx, visitor, open.map((c) => c.id)) : null;
      return { session_id: visitor.session_id, visitor_id: visitor.id, tenant: ctx.tenantId, conversation_id: open[0]?.id ?? null, grant: grant?.grant ?? null, grant_expires_at: grant?.expires_at ?? null };
    },
  }),
  start_conversation: operation({
    description: "A visitor's first message opens a conversation: {conversation, message, grant, tenant, online, offline_message}.",
    ...PREFIXED,
    input: Type.Object(
      { ...Session, message: Content, source_page_title: Type.Optional(Type.String({ maxLength: 255 })), metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())) },
      { additionalProperties: true },
    ),
    output: Type.Object({ conversation: VisitorConversation, message: Type.Union([VisitorMessage, Type.Null()]), grant: Type.String(), grant_expires_at: Type.String(), tenant: Type.String(), online: Type.Boolean(), offline_message: Type.Nullable(Type.String()) }),
    public_http: { method: 'POST', path: '/:token/conversations', token: 'token', rate_limit: '10/60', cors: CORS, success_status: 201 },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const visitor = await visitorFor(ctx, widget, input.session_id);
      checkMetadata(input.metadata);
      await checkConversationRate(ctx, widget, visitor);
      const conversation = await startConversation(
        ctx,
        {
          widget_id: widget.id,
          visitor_id: visitor.id,
          handler_type: widget.handler_type,
          handler_id: widget.handler_id,
          team_id: widget.team_id,
          handler_state: widget.handler_type === 'workflow' && widget.workflow_id ? { workflow_id: widget.workflow_id } : null,
          source_url: visitor.current_page,
          source_page_title: input.source_page_title ?? null,
          metadata: input.metadata ?? null,
        },
        { sender_type: 'visitor', sender_id: visitor.id, sender_name: visitor.name ?? 'Visitor', content: input.message },
      );
      const first = await ctx.host.db.findOne<MessageRow>('Message', { where: { conversation_id: conversation.id, sender_type: 'visitor' }, order: [['id', 'ASC']] });
      const open = await ctx.host.db.find<ConversationRow>('Conversation', { where: { visitor_id: visitor.id, status: { $in: [...OPEN] } }, order: [['id', 'DESC']], limit: 20 });
      const grant = await grantFor(ctx, visitor, [...new Set([conversation.id, ...open.map((c) => c.id)])].slice(0, 20));
      const online = isOpen(widget.business_hours, ctx.host.now());
      return {
        conversation: visitorConversation(conversation),
        message: first && visitorMessage(first, widget.token),
        grant: grant.grant,
        grant_expires_at: grant.expires_at,
        tenant: ctx.tenantId,
        online,
        offline_message: online ? null : widget.offline_message,
      };
    },
  }),
  visitor_messages: operation({
    description: "The visitor's view of one of their conversations: its messages without internal notes.",
    ...PREFIXED,
    input: Type.Object({ ...Session, id: Id, after_id: Type.Optional(Type.Integer({ minimum: 0 })) }, { additionalProperties: true }),
    output: Type.Object({ conversation: VisitorConversation, data: Type.Array(VisitorMessage) }),
    public_http: { method: 'GET', path: '/:token/conversations/:id/messages', token: 'token', rate_limit: '120/60', cors: CORS },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const c = await ownConversation(ctx, widget, await visitorFor(ctx, widget, input.session_id), input.id);
      const rows = await ctx.host.db.find<MessageRow>('Message', {
        where: { conversation_id: c.id, is_internal: false, id: { $gt: input.after_id ?? 0 } },
        order: [['id', 'ASC']],
        limit: 500,
      });
      return { conversation: visitorConversation(c), data: rows.map((m) => visitorMessage(m, widget.token)) };
    },
  }),
  visitor_send: operation({
    description: 'A visitor writes in one of their open conversations.',
    ...PREFIXED,
    input: Type.Object({ ...Session, id: Id, content: Content }, { additionalProperties: true }),
    output: Type.Object({ message: VisitorMessage }),
    public_http: { method: 'POST', path: '/:token/conversations/:id/messages', token: 'token', rate_limit: '30/60', cors: CORS, success_status: 201 },
    handler: async (input, ctx) => {
      // Every read before the insert needs only the request (token, session, conversation id): they
      // travel together, one round trip instead of four before agents see the message, and are
      // checked in the order widgetFor, visitorFor, ownConversation and the rate would check them.
      const [widget, visitor, c, recent] = await Promise.all([
        widgetFor(ctx, input),
        ctx.host.db.findOne<VisitorRow>('Visitor', { where: { session_id: input.session_id } }),
        ctx.host.db.findOne<ConversationRow>('Conversation', { where: { id: input.id } }),
        recentVisitorMessages(ctx, input.id),
      ]);
      if (!visitor || visitor.widget_id !== widget.id) throw sessionNotFound();
      if (!c || c.visitor_id !== visitor.id || c.widget_id !== widget.id) throw conversationNotFound(input.id);
      checkMessageRate(recent);
      // The visitor is seen once their session and conversation check out: the update travels with
      // the message's insert (one hop fewer after the broadcast), even if the conversation turns out closed.
      const [message] = await Promise.all([
        visitorWrites(ctx, c, { sender_type: 'visitor', sender_id: visitor.id, sender_name: visitor.name ?? 'Visitor', content: input.content }),
        ctx.host.db.update<VisitorRow>('Visitor', { last_seen_at: nowIso(ctx) }, { where: { id: visitor.id } }),
      ]);
      return { message: visitorMessage(message, widget.token) };
    },
  }),
  visitor_typing: operation({
    description: 'The visitor is typing (typing: true) or stopped (false) in one of their open conversations: chat.typing to the agents (README, Typing).',
    ...PREFIXED,
    input: Type.Object({ ...Session, id: Id, typing: Type.Boolean() }, { additionalProperties: true }),
    output: Type.Object({ sent: Type.Boolean() }),
    public_http: { method: 'POST', path: '/:token/conversations/:id/typing', token: 'token', rate_limit: '120/60', cors: CORS, success_status: 200 },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const visitor = await visitorFor(ctx, widget, input.session_id);
      const c = await ownConversation(ctx, widget, visitor, input.id);
      return { sent: await typing(ctx, c, 'visitor', visitor.name ?? 'Visitor', input.typing) };
    },
  }),
  rate_conversation: operation({
    description: 'The visitor rates a conversation 1-5, with optional feedback (once; a second rating replaces the first).',
    ...PREFIXED,
    input: Type.Object(
      { ...Session, id: Id, rating: Type.Integer({ minimum: 1, maximum: 5 }), feedback: Type.Optional(Type.String({ maxLength: LIMITS.feedbackChars })) },
      { additionalProperties: true },
    ),
    output: Type.Object({ conversation: VisitorConversation }),
    public_http: { method: 'POST', path: '/:token/conversations/:id/rate', token: 'token', rate_limit: '10/60', cors: CORS, success_status: 200 },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const c = await ownConversation(ctx, widget, await visitorFor(ctx, widget, input.session_id), input.id);
      await ctx.host.db.update<ConversationRow>('Conversation', { rating: input.rating, feedback: input.feedback ?? null, updated_at: nowIso(ctx) }, { where: { id: c.id } });
      if (c.agent_id !== null) await rateAgent(ctx, c.agent_id, c.rating, input.rating);
      const fresh = await conversationById(ctx, c.id);
      await conversationUpdated(ctx, fresh, 'rated');
      return { conversation: visitorConversation(fresh) };
    },
  }),
};

/** Adds the rating to the agent's totals (replacing the conversation's earlier one), compare-and-set. */
async function rateAgent(ctx: HandlerContext, agentId: number, previous: number | null, rating: number): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const a = await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: agentId } });
    if (!a) return;
    const next = previous === null ? { total_rating: a.total_rating + rating, ratings_count: a.ratings_count + 1 } : { total_rating: a.total_rating - previous + rating };
    if (await ctx.host.db.update<AgentRow>('Agent', next, { where: { id: agentId, total_rating: a.total_rating, ratings_count: a.ratings_count } })) return;
  }
}
