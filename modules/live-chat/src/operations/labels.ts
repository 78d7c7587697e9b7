/**
 * Labels (an addition beyond spec 2, README Labels): the tenant's labels (name unique whatever its
 * case, color), put on and taken off conversations by agents; GET /live-chat/conversations filters
 * by `label_id`, and conversations answer their `labels`.
 */
import { operation, Type } from '../../../../sdk';
import { changed } from '../conversations';
import { conversationById, labelById, unique } from '../db';
import { chatErrors, errorCode } from '../errors';
import { labelsOf } from '../labels';
import { nowIso, type ConversationLabelRow, type LabelRow } from '../records';
import { Label } from '../outputs';
import { Hex, Id } from '../schemas';

const MANAGE = 'live_chat.manage';
const VIEW = 'live_chat.view';
const REPLY = 'live_chat.reply';
const NOT_TOOL = { ai_tool: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 50, pattern: '^[^\\s](.*[^\\s])?$' });
const Labels = Type.Object({ data: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), color: Type.String() })) });

const nameTaken = (name: string) => chatErrors.labelExists(`A label named "${name}" exists already.`);

export const labelOperations = {
  list_labels: operation({
    description: 'The tenant\'s conversation labels, by name.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Label) }),
    http: { method: 'GET', path: '/live-chat/labels' },
    handler: async (_input, ctx) => ({ data: await ctx.host.db.find<LabelRow>('Label', { order: [['name', 'ASC']], limit: 1000 }) }),
  }),
  create_label: operation({
    description: 'Creates a label (name unique whatever its case; color #rrggbb).',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ name: Name, color: Type.Optional(Hex) }, { additionalProperties: false }),
    output: Label,
    http: { method: 'POST', path: '/live-chat/labels', success_status: 201 },
    handler: async (input, ctx) =>
      unique(() => ctx.host.db.create<LabelRow>('Label', { name: input.name, ...(input.color ? { color: input.color } : {}), created_at: nowIso(ctx) }), () => nameTaken(input.name)),
  }),
  update_label: operation({
    description: 'Renames or recolors a label.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, name: Type.Optional(Name), color: Type.Optional(Hex) }, { additionalProperties: false }),
    output: Label,
    http: { method: 'PUT', path: '/live-chat/labels/:id' },
    handler: async (input, ctx) => {
      const { id, ...fields } = input;
      await labelById(ctx, id);
      if (Object.keys(fields).length) await unique(() => ctx.host.db.update<LabelRow>('Label', fields, { where: { id } }), () => nameTaken(input.name ?? ''));
      return labelById(ctx, id);
    },
  }),
  delete_label: operation({
    description: 'Deletes a label and takes it off every conversation.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Type.Object({ deleted: Type.Boolean(), id: Type.Integer() }),
    http: { method: 'DELETE', path: '/live-chat/labels/:id' },
    handler: async (input, ctx) => {
      await labelById(ctx, input.id);
      await ctx.host.db.transaction(async (tx) => {
        await tx.destroy('ConversationLabel', { where: { label_id: input.id } });
        await tx.destroy('Label', { where: { id: input.id } });
      });
      return { deleted: true, id: input.id };
    },
  }),
  add_conversation_label: operation({
    description: 'Puts a label on a conversation (again: no change); answers the conversation\'s labels.',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, label_id: Id }, { additionalProperties: false }),
    output: Labels,
    http: { method: 'POST', path: '/live-chat/conversations/:id/labels', success_status: 200 },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      await labelById(ctx, input.label_id);
      // The pair is unique: a second add (at the same moment too) is the same label on it.
      const added = await ctx.host.db.create<ConversationLabelRow>('ConversationLabel', { conversation_id: c.id, label_id: input.label_id, created_at: nowIso(ctx) }).then(
        () => true,
        (err) => {
          if (errorCode(err) !== 'DB_CONFLICT') throw err;
          return false;
        },
      );
      // A label deleted meanwhile leaves no pair naming it.
      if (added && !(await ctx.host.db.findOne<LabelRow>('Label', { where: { id: input.label_id } }))) await ctx.host.db.destroy('ConversationLabel', { where: { label_id: input.label_id } });
      if (added) await changed(ctx, c.id, 'labels');
      return { data: (await labelsOf(ctx, [c.id])).get(c.id)! };
    },
  }),
  remove_conversation_label: operation({
    description: 'Takes a label off a conversation; answers the conversation\'s labels.',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, label_id: Id }, { additionalProperties: false }),
    output: Labels,
    http: { method: 'DELETE', path: '/live-chat/conversations/:id/labels/:label_id' },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      await labelById(ctx, input.label_id);
      if (await ctx.host.db.destroy('ConversationLabel', { where: { conversation_id: c.id, label_id: input.label_id } })) await changed(ctx, c.id, 'labels');
      return { data: (await labelsOf(ctx, [c.id])).get(c.id)! };
    },
  }),
};
