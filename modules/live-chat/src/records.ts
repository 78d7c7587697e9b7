/**
 * Row types of the live chat tables (spec 2, Live chat records) and what visitors see of them:
 * `visitorMessage` and `visitorConversation`, never a row (internal notes, agents' ids and metadata
 * stay on the agents' side).
 */
import type { HandlerContext, RowOf } from '../../../sdk';
import { attachmentOf, visitorUrl } from './attachment-urls';
import type { BusinessHours } from './business-hours';
import type { data } from './models';

/** The rows' types come from the models' columns (RowOf); the second argument narrows enum strings and json shapes. */
type Models = typeof data.models;

export const HANDLER_TYPES = ['agent', 'ai_bot', 'workflow'] as const;
export type HandlerType = (typeof HANDLER_TYPES)[number];
export const CONVERSATION_STATUSES = ['pending', 'active', 'waiting', 'resolved', 'closed'] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const AGENT_STATUSES = ['online', 'away', 'busy', 'offline'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];
export const POSITIONS = ['bottom-right', 'bottom-left', 'top-right', 'top-left'] as const;
export const SENDER_TYPES = ['visitor', 'agent', 'bot', 'system'] as const;
export type SenderType = (typeof SENDER_TYPES)[number];

export type WidgetRow = RowOf<Models['Widget'], { handler_type: HandlerType; allowed_domains: string[]; business_hours: BusinessHours }>;

/**
 * What a handler keeps on its conversation between messages: the ai module's conversation id (the
 * bot's memory), the workflow the conversation follows (copied from the widget when it starts) and
 * the metadata key whose question waits for the visitor's answer.
 */
export type HandlerState = { ai_conversation_id?: string; workflow_id?: string; pending_key?: string | null };

export type VisitorRow = RowOf<Models['Visitor']>;

export type ConversationRow = RowOf<Models['Conversation'], { status: ConversationStatus; handler_type: HandlerType; metadata: Record<string, unknown>; handler_state: HandlerState }>;

export type MessageRow = RowOf<Models['Message'], { sender_type: SenderType; metadata: Record<string, unknown> }>;

export type AttachmentRow = RowOf<Models['Attachment']>;

export type AgentRow = RowOf<Models['Agent'], { status: AgentStatus }>;

export type TeamRow = RowOf<Models['Team']>;
export type TeamMemberRow = RowOf<Models['TeamMember']>;
/** agent_id null: the tenant's, seen by every agent; else that agent's own, seen by them alone. */
export type CannedResponseRow = RowOf<Models['CannedResponse']>;
export type LabelRow = RowOf<Models['Label']>;
export type ConversationLabelRow = RowOf<Models['ConversationLabel']>;

/** Statuses in which a conversation holds its agent's slot (counted in current_chats_count). */
export const HOLDS_SLOT: readonly ConversationStatus[] = ['active', 'waiting'];

export const nowIso = (ctx: HandlerContext) => new Date(ctx.host.now()).toISOString();

/** A message as a visitor sees it: never an internal note (callers filter those), never metadata of agents. */
export function visitorMessage(m: MessageRow, token: string) {
  const attachment = attachmentOf(m, (conversationId, id) => visitorUrl(token, conversationId, id));
  return { id: m.id, conversation_id: m.conversation_id, sender_type: m.sender_type, sender_name: m.sender_name, content: m.content, type: m.type, created_at: m.created_at, attachment };
}

/** A conversation as its visitor sees it. */
export function visitorConversation(c: ConversationRow) {
  return { id: c.id, status: c.status, created_at: c.created_at, last_message_at: c.last_message_at, rating: c.rating };
}
