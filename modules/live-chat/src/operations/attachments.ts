/**
 * Attachments in messages (beyond spec 2, README Attachments): an agent sends one through the agent
 * API, a visitor through the widget's public route, each as a message carrying `attachment`; each
 * side downloads it on its own route (the visitor only from their own conversation, never an
 * internal note's). Storage, type and size rules: ../attachments.ts.
 */
import { operation, Type } from '../../../../sdk';
import { attach, attachmentIn, MAX_BASE64 } from '../attachments';
import { addMessage, visitorWrites } from '../conversations';
import { conversationById } from '../db';
import { invalidState } from '../errors';
import { checkMessageRate, recentVisitorMessages } from '../limits';
import { visitorMessage, type AttachmentRow } from '../records';
import { Message, VisitorMessage } from '../outputs';
import { Id } from '../schemas';
import { agentMessage, senderOf } from './conversations';
import { CORS, ownConversation, PREFIXED, Session, visitorFor, widgetFor } from './public';

const VIEW = 'live_chat.view';
const REPLY = 'live_chat.reply';
const File = {
  name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\\\u0000-\\u001f]+$' }),
  content_type: Type.String({ minLength: 3, maxLength: 100 }),
  data: Type.String({ minLength: 4, maxLength: MAX_BASE64, pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' }),
  content: Type.Optional(Type.String({ maxLength: 5000 })),
};
/**
 * Served as a download whatever the file is (README, Attachments): never rendered on the platform's
 * origin, and saved under the file's own name (`Content-Disposition: attachment`).
 */
const DOWNLOAD = { kind: 'bytes', content_type: 'application/octet-stream', disposition: 'attachment' } as const;
const Bytes = Type.Object({ base64: Type.String(), filename: Type.String() });
const download = (a: AttachmentRow) => ({ base64: a.data, filename: a.name });

export const attachmentOperations = {
  send_attachment: operation({
    description: 'An agent sends a file (image, PDF or text) in a conversation, as a message carrying it; with is_internal, to agents only.',
    permission: REPLY,
    ai_tool: false,
    input: Type.Object({ id: Id, ...File, is_internal: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
    output: Message,
    http: { method: 'POST', path: '/live-chat/conversations/:id/attachments', success_status: 201 },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      if (c.status === 'closed' && !input.is_internal) throw invalidState(`Conversation ${c.id} is closed; reopen it to write to the visitor.`, c.status);
      const sender = { sender_type: 'agent' as const, ...(await senderOf(ctx)), is_internal: input.is_internal === true };
      return agentMessage(await attach(ctx, c, input, sender, async (fields) => (await addMessage(ctx, c, fields)).message));
    },
  }),
  get_attachment: operation({
    description: "Downloads a message's file (application/octet-stream).",
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({ id: Id, attachment_id: Id }, { additionalProperties: false }),
    output: Bytes,
    http: { method: 'GET', path: '/live-chat/conversations/:id/attachments/:attachment_id', response: DOWNLOAD },
    handler: async (input, ctx) => {
      await conversationById(ctx, input.id);
      return download(await attachmentIn(ctx, input.id, input.attachment_id, false));
    },
  }),
  visitor_attachment: operation({
    description: 'A visitor sends a file (image, PDF or text) in one of their open conversations.',
    ...PREFIXED,
    input: Type.Object({ ...Session, id: Id, ...File }, { additionalProperties: true }),
    output: Type.Object({ message: VisitorMessage }),
    public_http: { method: 'POST', path: '/:token/conversations/:id/attachments', token: 'token', rate_limit: '10/60', cors: CORS, success_status: 201 },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const visitor = await visitorFor(ctx, widget, input.session_id);
      const c = await ownConversation(ctx, widget, visitor, input.id);
      // A file is a visitor message: the same per-conversation rate.
      checkMessageRate(await recentVisitorMessages(ctx, c.id));
      const sender = { sender_type: 'visitor' as const, sender_id: visitor.id, sender_name: visitor.name ?? 'Visitor' };
      const message = await attach(ctx, c, { name: input.name, content_type: input.content_type, data: input.data, content: input.content }, sender, (fields) => visitorWrites(ctx, c, fields));
      return { message: visitorMessage(message, widget.token) };
    },
  }),
  visitor_get_attachment: operation({
    description: "A visitor downloads a file of one of their conversations (application/octet-stream).",
    ...PREFIXED,
    input: Type.Object({ ...Session, id: Id, attachment_id: Id }, { additionalProperties: true }),
    output: Bytes,
    public_http: { method: 'GET', path: '/:token/conversations/:id/attachments/:attachment_id', token: 'token', rate_limit: '120/60', cors: CORS, response: DOWNLOAD },
    handler: async (input, ctx) => {
      const widget = await widgetFor(ctx, input);
      const c = await ownConversation(ctx, widget, await visitorFor(ctx, widget, input.session_id), input.id);
      return download(await attachmentIn(ctx, c.id, input.attachment_id, true));
    },
  }),
};
