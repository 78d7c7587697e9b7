/**
 * Realtime and push (spec 2, Events). Every new message is `chat.message.sent` and every status
 * change, assignment, resolution or transfer is `chat.conversation.updated`, both on the tenant's
 * `private-tenant.{tenantId}.live-chat` (agents) and on `chat.conversation.{id}` (the visitor's
 * widget and agents), with the spec's payload: conversation_id, message {id, content, sender_type,
 * sender_id, sender_name, type, created_at}, agent_name, visitor_id, widget_id, handler_type,
 * _tenant_id (the call's tenant: on public routes the tenant of the widget's token, the widget's
 * tenant_id), _timestamp. An internal note goes to the tenant channel only, never to the visitor's.
 * `chat.conversation.updated` adds what changed: change, status, agent_id, priority; its message is
 * the conversation's latest visitor-visible one (null before the first).
 *
 * Realtime is best effort: a refused broadcast (e.g. the host's 100 a second per tenant) is logged
 * and the stored message stands; clients catch up by reading the messages.
 */
import { agentUrl, attachmentOf } from './attachment-urls';
import { realtime, type HandlerContext } from '../../../sdk';
import { nowIso, type AgentRow, type ConversationRow, type MessageRow } from './records';

export const tenantChannel = (tenantId: string) => `private-tenant.${tenantId}.live-chat`;
export const conversationChannel = (id: number) => `chat.conversation.${id}`;
export const conversationPath = (id: number) => `/live-chat/conversations/${id}`;

export type ConversationChange = 'assigned' | 'transferred' | 'resolved' | 'closed' | 'reopened' | 'status' | 'priority' | 'rated' | 'escalated' | 'team' | 'labels';

const messagePayload = (m: MessageRow | null) =>
  // is_internal beside spec 2's fields: an agent's client tells a note from a reply without reading it back
  // (notes go to the tenant channel only, so a visitor never sees one).
  // attachment (README, Attachments): its url is the agent API's; the widget fetches by id on its own route.
  m && { id: m.id, content: m.content, sender_type: m.sender_type, sender_id: m.sender_id, sender_name: m.sender_name, type: m.type, is_internal: m.is_internal, created_at: m.created_at, attachment: attachmentOf(m, agentUrl) };

function payload(ctx: HandlerContext, c: ConversationRow, message: MessageRow | null, agentName: string | null) {
  return {
    conversation_id: c.id,
    message: messagePayload(message),
    agent_name: agentName,
    visitor_id: c.visitor_id,
    widget_id: c.widget_id,
    handler_type: c.handler_type,
    _tenant_id: ctx.tenantId,
    _timestamp: nowIso(ctx),
  };
}

export async function send(ctx: HandlerContext, channels: string[], event: string, body: unknown): Promise<void> {
  await Promise.all(
    channels.map((channel) =>
      realtime(ctx.host)
        .broadcast(channel, event, body)
        .catch((err: { code?: string; message?: string }) => ctx.host.log.warn('live chat broadcast refused', { channel, event, code: err?.code, message: err?.message })),
    ),
  );
}

export const agentNameOf = async (ctx: HandlerContext, agentId: number | null) =>
  agentId === null ? null : ((await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: agentId } }))?.name ?? null);

/** agentName: the conversation's agent's (agentNameOf), read by the caller beside the message's insert. */
export async function messageSent(ctx: HandlerContext, c: ConversationRow, m: MessageRow, agentName: string | null): Promise<void> {
  const channels = m.is_internal ? [tenantChannel(ctx.tenantId)] : [tenantChannel(ctx.tenantId), conversationChannel(c.id)];
  await send(ctx, channels, 'chat.message.sent', payload(ctx, c, m, agentName));
}

export async function conversationUpdated(ctx: HandlerContext, c: ConversationRow, change: ConversationChange): Promise<void> {
  const latest = await ctx.host.db.findOne<MessageRow>('Message', { where: { conversation_id: c.id, is_internal: false }, order: [['id', 'DESC']] });
  const body = { ...payload(ctx, c, latest, await agentNameOf(ctx, c.agent_id)), change, status: c.status, agent_id: c.agent_id, priority: c.priority };
  await send(ctx, [tenantChannel(ctx.tenantId), conversationChannel(c.id)], 'chat.conversation.updated', body);
}

/** Push failures never fail the chat: the notification is the platform's to retry. */
async function notify(ctx: HandlerContext, input: Record<string, unknown>): Promise<void> {
  await ctx.host.call('notifications.send', { module: 'live_chat', icon: 'chat', ...input }).catch((err: { code?: string; message?: string }) =>
    ctx.host.log.warn('live chat push refused', { code: err?.code, message: err?.message }),
  );
}

/**
 * One push to the assigned human agent for a visitor's message (spec 2, Push notification). The
 * platform leaves the banner out while the agent's app reports viewing the conversation's path
 * (core notifications: viewing); bot-handled conversations are skipped.
 */
export async function pushVisitorMessage(ctx: HandlerContext, c: ConversationRow, m: MessageRow): Promise<void> {
  if (c.handler_type !== 'agent' || c.agent_id === null) return;
  const agent = await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: c.agent_id } });
  if (!agent) return;
  await notify(ctx, {
    user_id: agent.user_id,
    type: 'live_chat.visitor_message',
    title: `${m.sender_name ?? 'Visitor'} wrote`,
    body: m.content.slice(0, 500),
    action_url: conversationPath(c.id),
    group_key: `live_chat.conversation.${c.id}`,
    data: { conversation_id: c.id, message_id: m.id },
  });
}

/** The urgent push on assignment and transfer: high priority, channel chat_urgent, a 10-second vibration. */
export async function pushAssigned(ctx: HandlerContext, c: ConversationRow, agent: AgentRow, change: 'assigned' | 'transferred'): Promise<void> {
  await notify(ctx, {
    user_id: agent.user_id,
    type: `live_chat.conversation_${change}`,
    title: change === 'transferred' ? 'A chat was transferred to you' : 'New chat assigned to you',
    body: c.last_message ? c.last_message.slice(0, 500) : null,
    severity: 'warning',
    action_url: conversationPath(c.id),
    data: { conversation_id: c.id, push: { channel: 'chat_urgent', priority: 'high', vibration_ms: 10_000 } },
  });
}
