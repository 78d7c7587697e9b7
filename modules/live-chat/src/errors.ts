/**
 * Business errors of live chat. The platform turns a thrown value carrying `code` into a typed bus
 * error {code, message, details} and answers HTTP with `details.status` (400 when absent).
 */
export class ChatError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: { status: number } & Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

export const notFound = (what: 'Widget' | 'Conversation' | 'Agent' | 'Session' | 'Team' | 'Label' | 'Canned response' | 'Attachment', id: unknown) =>
  new ChatError('NOT_FOUND', `${what} ${String(id)} not found.`, { status: 404 });

/** A public widget call naming a conversation that is not the session's: the same answer as a missing one. */
export const conversationNotFound = (id: unknown) => notFound('Conversation', id);

export const invalidState = (message: string, status: string) => new ChatError('INVALID_STATE', message, { status: 409, current_status: status });

export const validation = (field: string, message: string) => new ChatError('VALIDATION_FAILED', message, { status: 422, errors: { [field]: [message] } });

export const agentAtCapacity = (agentId: number, max: number) =>
  new ChatError('AGENT_AT_CAPACITY', `Agent ${agentId} already has ${max} chats, its maximum.`, { status: 409, max_concurrent_chats: max });

export const notAnAgent = () => new ChatError('NOT_AN_AGENT', 'You are not a live chat agent of this tenant; an admin adds you with POST /live-chat/agents.', { status: 404 });

export const widgetInactive = () => new ChatError('WIDGET_INACTIVE', 'This chat widget is switched off.', { status: 403 });

export const originNotAllowed = () => new ChatError('ORIGIN_NOT_ALLOWED', 'This page may not use this chat widget (allowed_domains).', { status: 403 });

/** A second record where a name or code must be unique (409). */
export const exists = (code: 'TEAM_EXISTS' | 'LABEL_EXISTS' | 'CANNED_RESPONSE_EXISTS', message: string) => new ChatError(code, message, { status: 409 });

/** Optimistic updates that kept losing to concurrent writers: the caller may retry. */
export const busy = (what: string) => new ChatError('LIVE_CHAT_BUSY', `${what} is being changed concurrently; retry.`, { status: 409 });

/** A bus error's code, to tell "not there" from any other failure of a call to another module. */
export const errorCode = (err: unknown) => (err as { code?: unknown })?.code;
