/**
 * Row types of the live chat tables (spec 2, Live chat records) and what visitors see of them:
 * `visitorMessage` and `visitorConversation`, never a row (internal notes, agents' ids and metadata
 * stay on the agents' side).
 */
import type { HandlerContext } from '../../../sdk';
import { attachmentOf, visitorUrl } from './attachment-urls';
import type { BusinessHours } from './business-hours';

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

export type WidgetRow = {
  id: number;
  name: string;
  token: string;
  is_active: boolean;
  primary_color: string;
  text_color: string;
  position: string;
  border_radius: number;
  launcher_size: number;
  launcher_icon: string;
  logo_url: string | null;
  welcome_title: string;
  welcome_message: string;
  input_placeholder: string;
  offline_message: string | null;
  handler_type: HandlerType;
  handler_id: number | null;
  workflow_id: string | null;
  collect_name: boolean;
  collect_email: boolean;
  sound_enabled: boolean;
  show_branding: boolean;
  allowed_domains: string[];
  business_hours: BusinessHours | null;
  team_id: number | null;
  tenant_id: string;
  created_at: string;
  updated_at: string;
};

/**
 * What a handler keeps on its conversation between messages: the ai module's conversation id (the
 * bot's memory), the workflow the conversation follows (copied from the widget when it starts) and
 * the metadata key whose question waits for the visitor's answer.
 */
export type HandlerState = { ai_conversation_id?: string; workflow_id?: string; pending_key?: string | null };

export type VisitorRow = {
  id: number;
  session_id: string;
  widget_id: number;
  name: string | null;
  email: string | null;
  phone: string | null;
  ip_address: string | null;
  user_agent: string | null;
  referrer: string | null;
  current_page: string | null;
  first_seen_at: string;
  last_seen_at: string;
};

export type ConversationRow = {
  id: number;
  widget_id: number;
  visitor_id: number;
  agent_id: number | null;
  status: ConversationStatus;
  priority: string;
  handler_type: HandlerType;
  handler_id: number | null;
  team_id: number | null;
  metadata: Record<string, unknown> | null;
  handler_state: HandlerState | null;
  source_url: string | null;
  source_page_title: string | null;
  last_message: string | null;
  last_message_at: string | null;
  first_response_at: string | null;
  resolved_at: string | null;
  closed_at: string | null;
  rating: number | null;
  feedback: string | null;
  visitor_typing: boolean;
  visitor_typing_at: string | null;
  agent_typing: boolean;
  agent_typing_at: string | null;
  created_at: string;
  updated_at: string;
};

export type MessageRow = {
  id: number;
  conversation_id: number;
  sender_type: SenderType;
  sender_id: number | null;
  sender_name: string | null;
  content: string;
  type: string;
  metadata: Record<string, unknown> | null;
  is_internal: boolean;
  is_read: boolean;
  read_at: string | null;
  created_at: string;
};

export type AttachmentRow = {
  id: number;
  conversation_id: number;
  message_id: number | null;
  name: string;
  content_type: string;
  size: number;
  data: string;
  is_internal: boolean;
  created_at: string;
};

export type AgentRow = {
  id: number;
  user_id: number;
  name: string;
  status: AgentStatus;
  max_concurrent_chats: number;
  current_chats_count: number;
  total_chats_count: number;
  total_rating: number;
  ratings_count: number;
  last_active_at: string | null;
  created_at: string;
};

export type TeamRow = { id: number; name: string; description: string | null; created_at: string; updated_at: string };
export type TeamMemberRow = { id: number; team_id: number; agent_id: number; created_at: string };
/** agent_id null: the tenant's, seen by every agent; else that agent's own, seen by them alone. */
export type CannedResponseRow = { id: number; agent_id: number | null; short_code: string; content: string; created_at: string; updated_at: string };
export type LabelRow = { id: number; name: string; color: string; created_at: string };
export type ConversationLabelRow = { id: number; conversation_id: number; label_id: number; created_at: string };

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
