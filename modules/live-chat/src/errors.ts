/**
 * Business errors of live chat, one catalog (listed in docs/reference/error-codes.md). A thrown one
 * becomes a typed bus error {code, message, details} and the platform answers HTTP with `details.status`.
 */
import { defineErrors } from '../../../sdk';

type Missing = 'Widget' | 'Conversation' | 'Agent' | 'Session' | 'Team' | 'Label' | 'Canned response' | 'Attachment';

export const chatErrors = defineErrors('live-chat', {
  notFound: { code: 'NOT_FOUND', status: 404, message: (what: Missing, id: unknown) => `${what} ${String(id)} not found.` },
  invalidState: {
    code: 'INVALID_STATE', status: 409,
    doc: 'The conversation (or team, or attachment) is in a state the action does not apply to; details.current_status names it.',
    message: (message: string, _status: string) => message,
    details: (_message, status) => ({ current_status: status }),
  },
  validation: { code: 'VALIDATION_FAILED', status: 422, message: (_field: string, message: string) => message, details: (field, message) => ({ errors: { [field]: [message] } }) },
  agentAtCapacity: {
    code: 'AGENT_AT_CAPACITY', status: 409,
    doc: 'The agent already has its most concurrent chats (details.max_concurrent_chats).',
    message: (agentId: number, max: number) => `Agent ${agentId} already has ${max} chats, its maximum.`,
    details: (_agentId, max) => ({ max_concurrent_chats: max }),
  },
  notAnAgent: {
    code: 'NOT_AN_AGENT', status: 404,
    doc: 'The user is not a live chat agent of the tenant; an admin adds agents with POST /live-chat/agents.',
    message: () => 'You are not a live chat agent of this tenant; an admin adds you with POST /live-chat/agents.',
  },
  agentExists: { code: 'AGENT_EXISTS', status: 409, doc: 'The user is an agent already.', message: (userId: number) => `User ${userId} is an agent already.` },
  widgetInactive: { code: 'WIDGET_INACTIVE', status: 403, doc: 'The chat widget is switched off.', message: () => 'This chat widget is switched off.' },
  widgetNotFound: { code: 'ROUTE_NOT_FOUND', status: 404, message: () => 'Not found.' },
  originNotAllowed: {
    code: 'ORIGIN_NOT_ALLOWED', status: 403,
    doc: "The page's Origin is not among the widget's allowed_domains.",
    message: () => 'This page may not use this chat widget (allowed_domains).',
  },
  sessionNotFound: {
    code: 'SESSION_NOT_FOUND', status: 404,
    doc: "The visitor's session is unknown or expired: start a new one with POST /session.",
    message: () => 'Session not found: start a new one with POST /session.',
  },
  teamExists: { code: 'TEAM_EXISTS', status: 409, doc: 'A team of that name exists already.', message: (message: string) => message },
  labelExists: { code: 'LABEL_EXISTS', status: 409, doc: 'A label of that name exists already.', message: (message: string) => message },
  cannedResponseExists: { code: 'CANNED_RESPONSE_EXISTS', status: 409, doc: 'A canned response with that short code exists already.', message: (message: string) => message },
  /** Optimistic updates that kept losing to concurrent writers: the caller may retry. */
  busy: {
    code: 'LIVE_CHAT_BUSY', status: 409,
    doc: 'The record kept changing under concurrent writers; retry.',
    message: (message: string) => message,
  },
  rateLimited: { code: 'RATE_LIMITED', status: 429, message: (message: string, _retryAfter: number) => message, details: (_message, retryAfter) => ({ retry_after: retryAfter }) },
  unsupportedType: {
    code: 'UNSUPPORTED_MEDIA_TYPE', status: 415,
    message: (type: string, allowed: readonly string[]) => `Files of type ${type} are not accepted; allowed: ${allowed.join(', ')}.`,
    details: (_type, allowed) => ({ errors: { content_type: [`Not an allowed type (${allowed.join(', ')}).`] } }),
  },
  tooLarge: { code: 'PAYLOAD_TOO_LARGE', status: 413, message: (size: string, limit: string, _maxBytes: number) => `The file is ${size}; the limit is ${limit}.`, details: (_size, _limit, maxBytes) => ({ max_bytes: maxBytes }) },
  attachmentLimit: {
    code: 'ATTACHMENT_LIMIT', status: 409,
    doc: 'The conversation holds its most attachments (details.max).',
    message: (max: number) => `A conversation holds at most ${max} attachments.`,
    details: (max) => ({ max }),
  },
});

export const { notFound, invalidState, validation, agentAtCapacity, notAnAgent, widgetInactive, originNotAllowed } = chatErrors;

/** A public widget call naming a conversation that is not the session's: the same answer as a missing one. */
export const conversationNotFound = (id: unknown) => notFound('Conversation', id);

/** Optimistic updates that kept losing to concurrent writers: the caller may retry. */
export const busy = (what: string) => chatErrors.busy(`${what} is being changed concurrently; retry.`);

/** A bus error's code, to tell "not there" from any other failure of a call to another module. */
export const errorCode = (err: unknown) => (err as { code?: unknown })?.code;
