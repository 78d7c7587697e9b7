/**
 * Conversations for agents (spec 2, Live chat: dashboard, /live-chat/conversations…). Six of these are
 * the chat module's AI tools (spec 2, Tools: "chat module 6"): get_dashboard, search_conversations,
 * get_conversation, get_messages, send_message and resolve_conversation; the rest set ai_tool false.
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { assignTo, releaseSlot } from '../assignment';
import { agentUrl, attachmentOf } from '../attachment-urls';
import { conversationUpdated, pushAssigned } from '../broadcast';
import { addMessage, changed, finish, reopen } from '../conversations';
import { agentById, conversationById, visitorById } from '../db';
import { invalidState } from '../errors';
import { labelledConversations, labelsOf } from '../labels';
import { typing } from '../typing';
import { HOLDS_SLOT, nowIso, type AgentRow, type ConversationRow, type MessageRow, type VisitorRow, type WidgetRow } from '../records';
import { Conversation, ConversationDetail, ConversationListed, Message } from '../outputs';
import { Content, Id, Page, Priority, StatusFilter } from '../schemas';

const VIEW = 'live_chat.view';
const REPLY = 'live_chat.reply';
const NOT_TOOL = { ai_tool: false } as const;
const Count = Type.Integer({ minimum: 0 });
const DashboardStats = Type.Object({
  total_conversations: Count, pending: Count, active: Count, waiting: Count, resolved: Count, closed: Count, online_agents: Count, agents: Count,
  average_rating: Type.Nullable(Type.Number()),
});
const Pagination = Type.Object({ total: Count, per_page: Type.Integer(), current_page: Type.Integer(), last_page: Type.Integer() });
const ById = Type.Object({ id: Id }, { additionalProperties: false });

/** `%` and `_` in a search are literal, not wildcards. */
const likeOf = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

async function withPeople(ctx: HandlerContext, rows: ConversationRow[]) {
  const visitorIds = [...new Set(rows.map((r) => r.visitor_id))];
  const agentIds = [...new Set(rows.map((r) => r.agent_id).filter((a): a is number => a !== null))];
  const visitors = visitorIds.length ? await ctx.host.db.find<VisitorRow>('Visitor', { where: { id: { $in: visitorIds } }, limit: 1000 }) : [];
  const agents = agentIds.length ? await ctx.host.db.find<AgentRow>('Agent', { where: { id: { $in: agentIds } }, limit: 1000 }) : [];
  const labels = await labelsOf(ctx, rows.map((r) => r.id));
  return rows.map((r) => {
    const v = visitors.find((x) => x.id === r.visitor_id);
    return { ...r, visitor: v ? { id: v.id, name: v.name, email: v.email } : null, agent_name: agents.find((a) => a.id === r.agent_id)?.name ?? null, labels: labels.get(r.id)! };
  });
}

/** A message as agents read it: the row and its attachment (README, Attachments). */
export const agentMessage = (m: MessageRow) => ({ ...m, attachment: attachmentOf(m, agentUrl) });

/** The sender an agent's message carries: their agent record, or the member (an admin without one). */
export async function senderOf(ctx: HandlerContext): Promise<{ sender_id: number | null; sender_name: string }> {
  const agent = ctx.user ? await ctx.host.db.findOne<AgentRow>('Agent', { where: { user_id: ctx.user.id } }) : null;
  return { sender_id: agent?.id ?? null, sender_name: agent?.name ?? ctx.user?.name ?? 'Agent' };
}

export const conversationOperations = {
  get_dashboard: operation({
    description: 'Live chat at a glance: conversations by status, agents online, average rating, the latest conversations and the active widgets.',
    permission: VIEW,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ stats: DashboardStats, recent_conversations: Type.Array(ConversationListed), active_widgets: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), handler_type: Type.String() })) }),
    http: { method: 'GET', path: '/live-chat/dashboard' },
    handler: async (_input, ctx) => {
      const count = (status: string) => ctx.host.db.count('Conversation', { where: { status } });
      const [pending, active, waiting, resolved, closed, online, agents] = await Promise.all([
        count('pending'),
        count('active'),
        count('waiting'),
        count('resolved'),
        count('closed'),
        ctx.host.db.count('Agent', { where: { status: { $in: ['online', 'busy'] } } }),
        ctx.host.db.find<AgentRow>('Agent', { limit: 1000 }),
      ]);
      const ratings = agents.reduce((s, a) => s + a.ratings_count, 0);
      const total = agents.reduce((s, a) => s + a.total_rating, 0);
      const recent = await ctx.host.db.find<ConversationRow>('Conversation', { order: [['id', 'DESC']], limit: 10 });
      const widgets = await ctx.host.db.find<WidgetRow>('Widget', { where: { is_active: true }, order: [['id', 'ASC']], limit: 100 });
      return {
        stats: {
          total_conversations: pending + active + waiting + resolved + closed,
          pending,
          active,
          waiting,
          resolved,
          closed,
          online_agents: online,
          agents: agents.length,
          average_rating: ratings ? Math.round((total / ratings) * 100) / 100 : null,
        },
        recent_conversations: await withPeople(ctx, recent),
        active_widgets: widgets.map((w) => ({ id: w.id, name: w.name, handler_type: w.handler_type })),
      };
    },
  }),
  search_conversations: operation({
    description: 'Conversations, newest first, filtered by status (comma-separated), agent, widget, team or label, and searched by visitor name, email or message text.',
    permission: VIEW,
    input: Type.Object(
      {
        status: Type.Optional(StatusFilter),
        search: Type.Optional(Type.String({ maxLength: 200 })),
        agent_id: Type.Optional(Id),
        widget_id: Type.Optional(Id),
        team_id: Type.Optional(Id),
        label_id: Type.Optional(Id),
        ...Page,
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: Type.Array(ConversationListed), pagination: Pagination }),
    http: { method: 'GET', path: '/live-chat/conversations' },
    handler: async (input, ctx) => {
      const where: Record<string, unknown> = {};
      if (input.status) where.status = { $in: input.status.split(',') };
      if (input.agent_id) where.agent_id = input.agent_id;
      if (input.widget_id) where.widget_id = input.widget_id;
      if (input.team_id) where.team_id = input.team_id;
      if (input.label_id) where.id = { $in: await labelledConversations(ctx, input.label_id) };
      const search = input.search?.trim();
      if (search) {
        const like = likeOf(search);
        const visitors = await ctx.host.db.find<VisitorRow>('Visitor', { where: { $or: [{ name: { $iLike: like } }, { email: { $iLike: like } }] }, attributes: ['id'], limit: 1000 });
        const messages = await ctx.host.db.find<MessageRow>('Message', { where: { content: { $iLike: like } }, attributes: ['conversation_id'], limit: 1000 });
        where.$or = [{ visitor_id: { $in: visitors.map((v) => v.id) } }, { id: { $in: [...new Set(messages.map((m) => m.conversation_id))] } }];
      }
      const perPage = input.per_page ?? 20;
      const page = input.page ?? 1;
      const [rows, total] = await Promise.all([
        ctx.host.db.find<ConversationRow>('Conversation', { where, order: [['id', 'DESC']], limit: perPage, offset: (page - 1) * perPage }),
        ctx.host.db.count('Conversation', { where }),
      ]);
      return { data: await withPeople(ctx, rows), pagination: { total, per_page: perPage, current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)) } };
    },
  }),
  get_conversation: operation({
    description: 'One conversation with its visitor and agent.',
    permission: VIEW,
    input: ById,
    output: ConversationDetail,
    http: { method: 'GET', path: '/live-chat/conversations/:id' },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      return {
        ...c,
        visitor: await visitorById(ctx, c.visitor_id),
        agent: c.agent_id === null ? null : await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: c.agent_id } }),
        labels: (await labelsOf(ctx, [c.id])).get(c.id)!,
      };
    },
  }),
  get_messages: operation({
    description: 'Messages of a conversation, oldest first, internal notes included; marks visitor messages read.',
    permission: VIEW,
    input: Type.Object({ id: Id, after_id: Type.Optional(Type.Integer({ minimum: 0 })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 200 })) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Message) }),
    http: { method: 'GET', path: '/live-chat/conversations/:id/messages' },
    handler: async (input, ctx) => {
      await conversationById(ctx, input.id);
      const data = await ctx.host.db.find<MessageRow>('Message', {
        where: { conversation_id: input.id, id: { $gt: input.after_id ?? 0 } },
        order: [['id', 'ASC']],
        limit: input.limit ?? 200,
      });
      await ctx.host.db.update<MessageRow>('Message', { is_read: true, read_at: nowIso(ctx) }, { where: { conversation_id: input.id, sender_type: 'visitor', is_read: false } });
      return { data: data.map(agentMessage) };
    },
  }),
  send_message: operation({
    description: 'An agent writes in a conversation; with is_internal the note is seen by agents only, never by the visitor.',
    permission: REPLY,
    input: Type.Object({ id: Id, content: Content, is_internal: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    output: Message,
    http: { method: 'POST', path: '/live-chat/conversations/:id/messages', success_status: 201 },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      if (c.status === 'closed' && !input.is_internal) throw invalidState(`Conversation ${c.id} is closed; reopen it to write to the visitor.`, c.status);
      const sender = await senderOf(ctx);
      const { message } = await addMessage(ctx, c, { sender_type: 'agent', ...sender, content: input.content, is_internal: input.is_internal === true });
      // Activity: an agent who just wrote is not the longest idle (assignment ties).
      if (sender.sender_id !== null) await ctx.host.db.update<AgentRow>('Agent', { last_active_at: nowIso(ctx) }, { where: { id: sender.sender_id } });
      return agentMessage(message);
    },
  }),
  agent_typing: operation({
    description: 'The calling agent is typing (typing: true) or stopped (false) in a conversation: chat.typing to its visitor (README, Typing).',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, typing: Type.Boolean() }, { additionalProperties: false }),
    output: Type.Object({ sent: Type.Boolean() }),
    http: { method: 'POST', path: '/live-chat/conversations/:id/typing', success_status: 200 },
    handler: async (input, ctx) => ({ sent: await typing(ctx, await conversationById(ctx, input.id), 'agent', (await senderOf(ctx)).sender_name, input.typing) }),
  }),
  resolve_conversation: operation({
    description: "Marks a conversation solved (resolved), freeing its agent's slot.",
    permission: REPLY,
    input: ById,
    output: Conversation,
    http: { method: 'POST', path: '/live-chat/conversations/:id/resolve', success_status: 200 },
    handler: async (input, ctx) => finish(ctx, await conversationById(ctx, input.id), 'resolved'),
  }),
  close_conversation: operation({
    description: "Ends a conversation (closed), freeing its agent's slot.",
    permission: REPLY,
    ...NOT_TOOL,
    input: ById,
    output: Conversation,
    http: { method: 'POST', path: '/live-chat/conversations/:id/close', success_status: 200 },
    handler: async (input, ctx) => finish(ctx, await conversationById(ctx, input.id), 'closed'),
  }),
  reopen_conversation: operation({
    description: 'Reopens a resolved or closed conversation: back to pending, and assigned again.',
    permission: REPLY,
    ...NOT_TOOL,
    input: ById,
    output: Conversation,
    http: { method: 'POST', path: '/live-chat/conversations/:id/reopen', success_status: 200 },
    handler: async (input, ctx) => reopen(ctx, await conversationById(ctx, input.id)),
  }),
  assign_conversation: operation({
    description: 'Assigns a conversation to an agent (the agent record id), or transfers it from its current agent; within the agent\'s maximum.',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, agent_id: Id }, { additionalProperties: false }),
    output: Conversation,
    http: { method: 'POST', path: '/live-chat/conversations/:id/assign', success_status: 200 },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      const agent = await agentById(ctx, input.agent_id);
      if (c.status === 'resolved' || c.status === 'closed') throw invalidState(`Conversation ${c.id} is ${c.status}; reopen it first.`, c.status);
      if (c.agent_id === agent.id) return c;
      const previous = c.agent_id;
      await assignTo(ctx, c, agent.id);
      if (previous !== null && HOLDS_SLOT.includes(c.status)) await releaseSlot(ctx, previous);
      const change = previous === null ? 'assigned' : 'transferred';
      const fresh = await conversationById(ctx, c.id);
      await conversationUpdated(ctx, fresh, change);
      await pushAssigned(ctx, fresh, await agentById(ctx, agent.id), change);
      return fresh;
    },
  }),
  set_priority: operation({
    description: 'Sets a conversation\'s priority: low, normal, high or urgent.',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, priority: Priority }, { additionalProperties: false }),
    output: Conversation,
    http: { method: 'PUT', path: '/live-chat/conversations/:id/priority' },
    handler: async (input, ctx) => {
      await conversationById(ctx, input.id);
      await ctx.host.db.update<ConversationRow>('Conversation', { priority: input.priority, updated_at: nowIso(ctx) }, { where: { id: input.id } });
      return changed(ctx, input.id, 'priority');
    },
  }),
};
