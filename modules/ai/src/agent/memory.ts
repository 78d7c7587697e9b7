/**
 * Conversation memory (the spec is silent; README "Agent"). A conversation belongs to its owner and
 * keeps its last MAX_MESSAGES messages, cut only before a user message so a tool result never loses
 * the call it answers. Owners:
 * - a user (POST /ai/agent/chat): another user's conversation is not found; a user keeps at most
 *   MAX_CONVERSATIONS, the least recently used going first;
 * - a module answering people who are not users (`ai.agent_reply`, e.g. live_chat's visitors): one
 *   conversation per conversation of that module, so no count bound; one unused for
 *   MODULE_CONVERSATION_DAYS is deleted when the module starts a new one.
 */
import type { HandlerContext } from '../../../../sdk';
import type { ChatMessage } from '../llm';
import { notFound } from '../errors';

export const MAX_MESSAGES = 40;
export const MAX_CONVERSATIONS = 50;
export const MODULE_CONVERSATION_DAYS = 30;

export type Owner = { user_id: number } | { module: string };

type Row = { id: string; user_id?: number; module?: string; role_id: string; messages: ChatMessage[]; updated_at: string };
const modelOf = (owner: Owner) => ('user_id' in owner ? 'AgentConversation' : 'AgentModuleConversation');

/**
 * A conversation as the chat starts. A new one of a user's also names the user's conversations that
 * the new one will push beyond MAX_CONVERSATIONS (it is the newest): read now, with the chat's other
 * reads, they are deleted while the new one is written.
 */
export interface LoadedConversation {
  id: string | null;
  messages: ChatMessage[];
  evict: string[];
}

export async function loadConversation(ctx: HandlerContext, owner: Owner, id: string | undefined): Promise<LoadedConversation> {
  if (!id) {
    if (!('user_id' in owner)) return { id: null, messages: [], evict: [] };
    const old = await ctx.host.db.find<Row>(modelOf(owner), { where: owner, order: [['updated_at', 'DESC']], offset: MAX_CONVERSATIONS - 1, limit: 100, attributes: ['id'] });
    return { id: null, messages: [], evict: old.map((o) => o.id) };
  }
  const row = /^[0-9a-f-]{36}$/i.test(id) ? await ctx.host.db.findOne<Row>(modelOf(owner), { where: { id, ...owner } }) : null;
  if (!row) throw notFound('Conversation', id); // another owner's conversation is not found either
  return { id: row.id, messages: row.messages, evict: [] };
}

/** The messages kept: the newest MAX_MESSAGES, starting at a user message. */
export function bounded(messages: ChatMessage[]): ChatMessage[] {
  if (messages.length <= MAX_MESSAGES) return messages;
  let start = messages.length - MAX_MESSAGES;
  while (start < messages.length && messages[start]!.role !== 'user') start++;
  return messages.slice(start);
}

export async function saveConversation(ctx: HandlerContext, owner: Owner, conversation: LoadedConversation, roleId: string, messages: ChatMessage[]): Promise<string> {
  const model = modelOf(owner);
  const at = new Date(ctx.host.now()).toISOString();
  const kept = bounded(messages);
  if (conversation.id) {
    await ctx.host.db.update<Row>(model, { messages: kept, role_id: roleId, updated_at: at }, { where: { id: conversation.id, ...owner } });
    return conversation.id;
  }
  const cleanUp =
    'module' in owner
      ? ctx.host.db.destroy(model, { where: { module: owner.module, updated_at: { $lt: new Date(ctx.host.now() - MODULE_CONVERSATION_DAYS * 86_400_000).toISOString() } } })
      : conversation.evict.length > 0
        ? ctx.host.db.destroy(model, { where: { id: { $in: conversation.evict }, ...owner } })
        : undefined;
  const [row] = await Promise.all([ctx.host.db.create<Row>(model, { ...owner, role_id: roleId, messages: kept, updated_at: at }), cleanUp]);
  return row.id;
}
