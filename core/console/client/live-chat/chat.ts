/**
 * What the agent inbox reads from the live chat module (spec 2, Live chat records and Events): the
 * conversation, message and agent records as /api/v1/live-chat answers them, and the tenant's
 * `private-tenant.{tenant_id}.live-chat` channel on the user's socket, joined while the inbox is open
 * and again after every reconnect (a reconnected socket is in no channel but its user's).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { socketFor } from '../realtime';
import { currentSession } from '../session';

export const INBOX_PATH = '/admin/inbox';
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
/** An agent sets online, away or offline; busy is the platform's (at the maximum of chats). */
export const MY_STATUSES = ['online', 'away', 'offline'] as const;

export interface Conversation {
  id: number;
  status: string;
  priority: string;
  agent_id: number | null;
  agent_name?: string | null;
  visitor: { id: number; name: string | null; email: string | null } | null;
  source_url: string | null;
  source_page_title?: string | null;
  last_message: string | null;
  last_message_at: string | null;
  created_at: string;
}

export interface Message {
  id: number;
  conversation_id: number;
  sender_type: 'visitor' | 'agent' | 'bot' | 'system';
  sender_name: string | null;
  content: string;
  is_internal: boolean;
  created_at: string;
  /** The message's file (README, Attachments), with the agent API's url to download it. */
  attachment?: Attachment | null;
}

export interface Attachment {
  id: number;
  name: string;
  content_type: string;
  size: number;
  url: string;
}

export interface Agent {
  id: number;
  user_id: number;
  name: string;
  status: string;
  current_chats_count: number;
  max_concurrent_chats: number;
}

/** The broadcast payload (spec 2, Events); `chat.conversation.updated` adds change, status, agent_id, priority. */
export interface ChatEvent {
  conversation_id: number;
  message: { id: number; sender_type: string; created_at: string } | null;
  change?: string;
}

export type ChatEventName = 'chat.message.sent' | 'chat.conversation.updated';

/** The badge colour of a conversation status. */
export const statusVariant = (s: string) => (s === 'active' ? 'success' : s === 'pending' || s === 'waiting' ? 'warning' : 'secondary');

export const visitorName = (c: Conversation) => c.visitor?.name || c.visitor?.email || `Visitor ${c.visitor?.id ?? ''}`.trim();

/**
 * Calls onEvent for each live chat broadcast while mounted; answers whether the channel is joined
 * (the server acknowledged the subscription), which the inbox shows as "Live".
 */
export function useChatChannel(tenantId: string, onEvent: (name: ChatEventName, e: ChatEvent) => void): boolean {
  const [live, setLive] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const socket = socketFor(currentSession()!);
    const channel = `private-tenant.${tenantId}.live-chat`;
    const join = () => socket.emit('subscribe', channel, (ack: { ok: boolean }) => setLive(ack?.ok === true));
    const lost = () => setLive(false);
    const sent = (e: ChatEvent) => handler.current('chat.message.sent', e);
    const updated = (e: ChatEvent) => handler.current('chat.conversation.updated', e);
    socket.on('connect', join);
    socket.on('disconnect', lost);
    socket.on('chat.message.sent', sent);
    socket.on('chat.conversation.updated', updated);
    if (socket.connected) join();
    return () => {
      socket.off('connect', join);
      socket.off('disconnect', lost);
      socket.off('chat.message.sent', sent);
      socket.off('chat.conversation.updated', updated);
      socket.emit('unsubscribe', channel);
    };
  }, [tenantId]);
  return live;
}
