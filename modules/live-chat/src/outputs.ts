/**
 * What the live chat operations return (spec 2, Live chat records): one schema per record, described
 * from the tables in models.ts (sdk rowSchema), so a column added there shows in every output that
 * returns its row. Extra keys are allowed (a row may grow a column), a missing key or a wrong type is
 * not. Visitors see only the visitor views (records.ts: visitorMessage, visitorConversation).
 */
import { rowSchema, Type, type TSchema } from '../../../sdk';
import { BusinessHours } from './schemas';
import { data } from './models';

/** One row of a model (sdk rowSchema); json columns get their shape from `shapes`. */
const row = (model: keyof typeof data.models, shapes: Record<string, TSchema> = {}, extra: Record<string, TSchema> = {}) => rowSchema(data.models[model], shapes, extra);

const Metadata = Type.Record(Type.String(), Type.Unknown());
const HandlerState = Type.Record(Type.String(), Type.Unknown());

/** A message's file (README, Attachments), with the url its reader fetches it at; null without one. */
export const Attachment = Type.Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), content_type: Type.String(), size: Type.Integer(), url: Type.String() }));

export const Widget = row('Widget', { allowed_domains: Type.Array(Type.String()), business_hours: BusinessHours });
export const Visitor = row('Visitor');
export const Conversation = row('Conversation', { metadata: Metadata, handler_state: HandlerState });
export const Message = row('Message', { metadata: Metadata }, { attachment: Type.Optional(Attachment) });
export const Agent = row('Agent');
export const Team = row('Team');
export const CannedResponse = row('CannedResponse');
export const Label = row('Label');
const LabelBrief = Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() });

/** A conversation in lists: its row, the visitor's name and email, and the agent's name. */
export const ConversationListed = row('Conversation', { metadata: Metadata, handler_state: HandlerState }, {
  visitor: Type.Nullable(Type.Object({ id: Type.Integer(), name: Type.Nullable(Type.String()), email: Type.Nullable(Type.String()) })),
  agent_name: Type.Nullable(Type.String()),
  labels: Type.Array(LabelBrief),
});
/** One conversation: its row with its visitor and agent records. */
export const ConversationDetail = row('Conversation', { metadata: Metadata, handler_state: HandlerState }, { visitor: Type.Nullable(Visitor), agent: Type.Nullable(Agent), labels: Type.Array(LabelBrief) });

/** What a visitor sees of a message and of a conversation. */
export const VisitorMessage = Type.Object({
  id: Type.Integer(),
  conversation_id: Type.Integer(),
  sender_type: Type.String(),
  sender_name: Type.Nullable(Type.String()),
  content: Type.String(),
  type: Type.String(),
  created_at: Type.String({ description: 'ISO 8601 timestamp' }),
  attachment: Attachment,
});
export const VisitorConversation = Type.Object({
  id: Type.Integer(),
  status: Type.String(),
  created_at: Type.String({ description: 'ISO 8601 timestamp' }),
  last_message_at: Type.Nullable(Type.String({ description: 'ISO 8601 timestamp' })),
  rating: Type.Nullable(Type.Integer()),
});
