/**
 * What a message carries of its file (README, Attachments): `{id, name, content_type, size, url}`,
 * stored in the message's metadata without the url, which depends on who reads it: agents fetch it
 * through the agent API, visitors through the widget's route (with their session_id).
 */
import type { MessageRow } from './records';

export type AttachmentInfo = { id: number; name: string; content_type: string; size: number; url: string };

export const agentUrl = (conversationId: number, id: number) => `/api/v1/live-chat/conversations/${conversationId}/attachments/${id}`;
export const visitorUrl = (token: string, conversationId: number, id: number) => `/api/widget/${token}/conversations/${conversationId}/attachments/${id}`;

/** The message's attachment for one side, or null (a message without one). */
export function attachmentOf(m: MessageRow, url: (conversationId: number, id: number) => string): AttachmentInfo | null {
  const a = m.metadata?.attachment as Omit<AttachmentInfo, 'url'> | undefined;
  return a ? { ...a, url: url(m.conversation_id, a.id) } : null;
}
