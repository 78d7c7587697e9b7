/**
 * The life of a conversation (spec 2, States and transitions: conversation). Decided where the spec
 * is silent: assignment moves pending → active; an agent's reply moves active → waiting (awaiting the
 * visitor) and the visitor's next message moves it back to active; Resolve → resolved and Close →
 * closed (from any open state; both free the agent's slot); Reopen moves resolved or closed back to
 * pending with no agent, and assignment runs again; Transfer is an assign on an assigned
 * conversation (the slot moves to the new agent). Visitors write only in open conversations.
 */
import type { HandlerContext } from '../../../sdk';
import { assignTo, drainQueue, releaseSlot } from './assignment';
import { agentNameOf, conversationUpdated, messageSent, pushAssigned, pushVisitorMessage, type ConversationChange } from './broadcast';
import { agentById, conversationById } from './db';
import { errorCode, invalidState } from './errors';
import { handlerFor, type ConversationHandler } from './handlers';
import { LIMITS } from './schemas';
import { mailTranscript } from './transcript';
import { HOLDS_SLOT, nowIso, type AgentRow, type ConversationRow, type ConversationStatus, type MessageRow, type SenderType } from './records';

export const OPEN: readonly ConversationStatus[] = ['pending', 'active', 'waiting'];

export interface NewMessage {
  sender_type: SenderType;
  sender_id: number | null;
  sender_name: string | null;
  content: string;
  is_internal?: boolean;
  metadata?: Record<string, unknown> | null;
}

/** Stores a message, broadcasts it, and moves the conversation as the message implies. */
export async function addMessage(ctx: HandlerContext, c: ConversationRow, fields: NewMessage): Promise<{ message: MessageRow; conversation: ConversationRow }> {
  const now = nowIso(ctx);
  // The agent's name for the broadcast is read beside the insert: one round trip fewer before agents see the message.
  const [message, agentName] = await Promise.all([
    ctx.host.db.create<MessageRow>('Message', {
      conversation_id: c.id,
      sender_type: fields.sender_type,
      sender_id: fields.sender_id,
      sender_name: fields.sender_name,
      content: fields.content,
      type: 'text',
      metadata: fields.metadata ?? null,
      is_internal: fields.is_internal === true,
      created_at: now,
    }),
    agentNameOf(ctx, c.agent_id),
  ]);
  // Broadcast first: the conversation as read is all the payload needs, and agents see the message
  // without waiting for the bookkeeping below.
  await messageSent(ctx, c, message, agentName);
  let conversation = c;
  if (!message.is_internal) {
    const changes: Partial<ConversationRow> = { last_message: fields.content.slice(0, 1000), last_message_at: now, updated_at: now };
    // Conditional moves, so a concurrent resolve or close is never undone by a late message. Each
    // statement sets columns of its own, so they go together: one sandbox hop and round trip, not up to three.
    const moves: Promise<unknown>[] = [ctx.host.db.update<ConversationRow>('Conversation', changes, { where: { id: c.id } })];
    if (fields.sender_type === 'agent') {
      moves.push(ctx.host.db.update<ConversationRow>('Conversation', { status: 'waiting' }, { where: { id: c.id, status: 'active' } }));
      moves.push(ctx.host.db.update<ConversationRow>('Conversation', { first_response_at: now }, { where: { id: c.id, first_response_at: null } }));
    }
    if (fields.sender_type === 'visitor') moves.push(ctx.host.db.update<ConversationRow>('Conversation', { status: 'active' }, { where: { id: c.id, status: 'waiting' } }));
    await Promise.all(moves);
    conversation = await conversationById(ctx, c.id);
    // Spec 2, Events: a status change (waiting ⇄ active by who wrote last) is a chat.conversation.updated.
    if (conversation.status !== c.status) await conversationUpdated(ctx, conversation, 'status');
  }
  return { message, conversation };
}

/** Who a bot or workflow handler's messages come from (sender `bot`). */
export const BOT_NAME = 'Assistant';

/** A bot or workflow handler writes to the visitor; `metadata` says what it answers, so a repeat can find it. */
export async function botSays(ctx: HandlerContext, c: ConversationRow, content: string, metadata: Record<string, unknown>): Promise<MessageRow> {
  return (await addMessage(ctx, c, { sender_type: 'bot', sender_id: null, sender_name: BOT_NAME, content: content.slice(0, LIMITS.messageChars), metadata })).message;
}

/** Human agents: queue for assignment; a visitor's message pushes to the assigned agent. */
const agentHandler: ConversationHandler = {
  onStart: async () => 'queue',
  onVisitorMessage: async (ctx, c, m) => {
    await pushVisitorMessage(ctx, c, m);
    return 'handled';
  },
};

/** Runs the queue and tells everyone about each assignment it made (broadcast and urgent push). */
export async function assignPending(ctx: HandlerContext): Promise<void> {
  for (const { conversation, agent } of await drainQueue(ctx)) {
    const fresh = await conversationById(ctx, conversation.id);
    await conversationUpdated(ctx, fresh, 'assigned');
    await pushAssigned(ctx, fresh, agent, 'assigned');
  }
}

/**
 * Hands a conversation its handler wants a human for to the agent queue, saying so to the visitor.
 * Conditional on the handler it had, so two escalations at once (a bot's answer and the visitor
 * asking for a person) hand it over once; false when another did.
 */
async function escalate(ctx: HandlerContext, c: ConversationRow): Promise<boolean> {
  const moved = await ctx.host.db.update<ConversationRow>('Conversation', { handler_type: 'agent', handler_id: null, updated_at: nowIso(ctx) }, { where: { id: c.id, handler_type: c.handler_type } });
  if (!moved) return false;
  const escalated = await conversationById(ctx, c.id);
  await addMessage(ctx, escalated, { sender_type: 'system', sender_id: null, sender_name: null, content: 'Connecting you with a member of our team.' });
  await conversationUpdated(ctx, escalated, 'escalated');
  return true;
}

/** A handler's hand-over outside a visitor's message (a bot's answer, a workflow's route node): escalate, then assign. */
export async function handToHuman(ctx: HandlerContext, c: ConversationRow): Promise<boolean> {
  if (!(await escalate(ctx, c))) return false;
  await assignPending(ctx);
  return true;
}

/** Who an agent cannot take a conversation from directly: at their maximum, or the conversation moved meanwhile. */
const NOT_TAKEN = new Set(['AGENT_AT_CAPACITY', 'LIVE_CHAT_BUSY']);

/**
 * A workflow's route node naming an agent (README, Handlers): the hand-over goes straight to that
 * agent when they are online with a free slot, otherwise (offline, away, busy, full meanwhile, or
 * the queue gave the conversation to someone first) to the queue like any hand-over. Resolves to
 * whether this call handed it over and the agent it went to directly (null: queued).
 */
export async function handToAgent(ctx: HandlerContext, c: ConversationRow, agent: AgentRow): Promise<{ routed: boolean; agent_id: number | null }> {
  if (!(await escalate(ctx, c))) return { routed: false, agent_id: null };
  if (agent.status === 'online' && agent.current_chats_count < agent.max_concurrent_chats) {
    try {
      await assignTo(ctx, await conversationById(ctx, c.id), agent.id);
    } catch (err) {
      if (!NOT_TAKEN.has(String(errorCode(err)))) throw err;
    }
    const fresh = await conversationById(ctx, c.id);
    // assignTo takes nothing from an agent deleted meanwhile: then the queue decides.
    if (fresh.agent_id === agent.id) {
      await conversationUpdated(ctx, fresh, 'assigned');
      await pushAssigned(ctx, fresh, await agentById(ctx, agent.id), 'assigned');
      return { routed: true, agent_id: agent.id };
    }
  }
  await assignPending(ctx);
  return { routed: true, agent_id: null };
}

/** A visitor's first message opens a conversation; its handler decides who answers. */
export async function startConversation(
  ctx: HandlerContext,
  init: Pick<ConversationRow, 'widget_id' | 'visitor_id' | 'handler_type' | 'handler_id' | 'team_id' | 'handler_state' | 'source_url' | 'source_page_title' | 'metadata'>,
  first: NewMessage,
): Promise<ConversationRow> {
  const now = nowIso(ctx);
  const created = await ctx.host.db.create<ConversationRow>('Conversation', { ...init, status: 'pending', priority: 'normal', created_at: now, updated_at: now });
  const { conversation, message } = await addMessage(ctx, created, first);
  await ctx.host.emit('live_chat.conversation_started', {
    conversation_id: conversation.id, widget_id: conversation.widget_id, visitor_id: conversation.visitor_id, handler_type: conversation.handler_type,
    message: { id: message.id, content: message.content, created_at: message.created_at },
  });
  const handler = handlerFor(conversation.handler_type, agentHandler);
  let next = await handler.onStart(ctx, conversation);
  // A handler that takes the conversation answers its first message too, and may hand it over there.
  if (next === 'handled') next = await handler.onVisitorMessage(ctx, conversation, message);
  if (next === 'escalate') await escalate(ctx, conversation);
  if (next !== 'handled') await assignPending(ctx);
  return conversationById(ctx, conversation.id);
}

/** A visitor writes in one of their open conversations. */
export async function visitorWrites(ctx: HandlerContext, c: ConversationRow, fields: NewMessage): Promise<MessageRow> {
  if (!OPEN.includes(c.status)) throw invalidState(`Conversation ${c.id} is ${c.status}; start a new conversation.`, c.status);
  const { conversation, message } = await addMessage(ctx, c, fields);
  const handler = handlerFor(conversation.handler_type, agentHandler);
  if ((await handler.onVisitorMessage(ctx, conversation, message)) === 'escalate') {
    await escalate(ctx, conversation);
    await assignPending(ctx);
  }
  return message;
}

/**
 * Moves an open conversation to resolved or closed (or a resolved one to closed), freeing its agent's
 * slot, then gives queued conversations to the freed agent.
 */
export async function finish(ctx: HandlerContext, c: ConversationRow, to: 'resolved' | 'closed'): Promise<ConversationRow> {
  const from: readonly ConversationStatus[] = to === 'resolved' ? OPEN : [...OPEN, 'resolved'];
  if (!from.includes(c.status)) throw invalidState(`Conversation ${c.id} is ${c.status}; it cannot be ${to}.`, c.status);
  const now = nowIso(ctx);
  const moved = await ctx.host.db.update<ConversationRow>('Conversation', { status: to, updated_at: now, ...(to === 'resolved' ? { resolved_at: now } : { closed_at: now }) }, { where: { id: c.id, status: c.status } });
  if (!moved) throw invalidState(`Conversation ${c.id} changed meanwhile; read it again.`, c.status);
  if (c.agent_id !== null && HOLDS_SLOT.includes(c.status)) await releaseSlot(ctx, c.agent_id);
  const fresh = await conversationById(ctx, c.id);
  await conversationUpdated(ctx, fresh, to);
  if (to === 'closed') await mailTranscript(ctx, fresh);
  await assignPending(ctx);
  return fresh;
}

/** Reopen: a resolved or closed conversation goes back to the queue (pending, no agent). */
export async function reopen(ctx: HandlerContext, c: ConversationRow): Promise<ConversationRow> {
  if (c.status !== 'closed' && c.status !== 'resolved') throw invalidState(`Conversation ${c.id} is ${c.status}; only resolved or closed conversations reopen.`, c.status);
  const moved = await ctx.host.db.update<ConversationRow>(
    'Conversation',
    { status: 'pending', agent_id: null, resolved_at: null, closed_at: null, updated_at: nowIso(ctx) },
    { where: { id: c.id, status: c.status } },
  );
  if (!moved) throw invalidState(`Conversation ${c.id} changed meanwhile; read it again.`, c.status);
  await conversationUpdated(ctx, await conversationById(ctx, c.id), 'reopened');
  await assignPending(ctx);
  return conversationById(ctx, c.id);
}

export async function changed(ctx: HandlerContext, id: number, change: ConversationChange): Promise<ConversationRow> {
  const fresh = await conversationById(ctx, id);
  await conversationUpdated(ctx, fresh, change);
  return fresh;
}
