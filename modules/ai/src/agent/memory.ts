/**
 * Conversation memory per user (the spec is silent; README "Agent"): a conversation belongs to the
 * user who started it and keeps its last MAX_MESSAGES messages, cut only before a user message so a
 * tool result never loses the call it answers; a user keeps at most MAX_CONVERSATIONS, the least
 * recently used going first.
 */
import type { HandlerContext } from '../../../../sdk';
import type { ChatMessage } from '../llm';
import { notFound } from './errors';

export const MAX_MESSAGES = 40;
export const MAX_CONVERSATIONS = 50;

type Row = { id: string; user_id: number; role_id: string; messages: ChatMessage[]; updated_at: string };

export async function loadConversation(ctx: HandlerContext, id: string | undefined): Promise<{ id: string | null; messages: ChatMessage[] }> {
  if (!id) return { id: null, messages: [] };
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await ctx.host.db.findOne<Row>('AgentConversation', { where: { id, user_id: ctx.user!.id } }) : null;
  if (!row) throw notFound('Conversation', id); // another user's conversation is not found either
  return { id: row.id, messages: row.messages };
}

/** The messages kept: the newest MAX_MESSAGES, starting at a user message. */
export function bounded(messages: ChatMessage[]): ChatMessage[] {
  if (messages.length <= MAX_MESSAGES) return messages;
  let start = messages.length - MAX_MESSAGES;
  while (start < messages.length && messages[start]!.role !== 'user') start++;
  return messages.slice(start);
}

export async function saveConversation(ctx: HandlerContext, id: string | null, roleId: string, messages: ChatMessage[]): Promise<string> {
  const at = new Date(ctx.host.now()).toISOString();
  const kept = bounded(messages);
  if (id) {
    await ctx.host.db.update<Row>('AgentConversation', { messages: kept, role_id: roleId, updated_at: at }, { where: { id, user_id: ctx.user!.id } });
    return id;
  }
  // The new row and the look for conversations beyond the bound go at once; the new one is the newest.
  const [row, old] = await Promise.all([
    ctx.host.db.create<Row>('AgentConversation', { user_id: ctx.user!.id, role_id: roleId, messages: kept, updated_at: at }),
    ctx.host.db.find<Row>('AgentConversation', { where: { user_id: ctx.user!.id }, order: [['updated_at', 'DESC']], offset: MAX_CONVERSATIONS - 1, limit: 100, attributes: ['id'] }),
  ]);
  if (old.length > 0) await ctx.host.db.destroy('AgentConversation', { where: { id: { $in: old.map((o) => o.id) } } });
  return row.id;
}
