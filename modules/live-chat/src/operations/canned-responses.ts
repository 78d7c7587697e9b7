/**
 * Canned responses (an addition beyond spec 2, README Canned responses): saved replies an agent
 * inserts by short code (the inbox's `/` shortcut). The tenant's (agent_id null) are made by managers
 * under /live-chat/canned-responses and seen by every agent; an agent's own are made under
 * /live-chat/agents/me/canned-responses and seen by that agent alone: any other caller, managers
 * included, gets the same 404 as for a missing one. A short code is unique per owner.
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { unique } from '../db';
import { chatErrors, notFound } from '../errors';
import { nowIso, type AgentRow, type CannedResponseRow } from '../records';
import { CannedResponse } from '../outputs';
import { Content, Id } from '../schemas';
import { myAgent } from './agents';

const MANAGE = 'live_chat.manage';
const VIEW = 'live_chat.view';
const REPLY = 'live_chat.reply';
const NOT_TOOL = { ai_tool: false } as const;
const SHORT_CODE = '^[A-Za-z0-9_-]+$';
const ShortCode = Type.String({ minLength: 1, maxLength: 50, pattern: SHORT_CODE });
const Fields = { short_code: ShortCode, content: Content };
const Update = Type.Object({ id: Id, short_code: Type.Optional(ShortCode), content: Type.Optional(Content) }, { additionalProperties: false });
const Deleted = Type.Object({ deleted: Type.Boolean(), id: Type.Integer() });

const codeTaken = (code: string) => chatErrors.cannedResponseExists(`A canned response with the short code "${code}" exists already.`);
/** `%` and `_` are not in a short code (SHORT_CODE), so a prefix is literal as given. */
const startsWith = (prefix: string) => `${prefix}%`;

/** The caller's agent id, or null for a member who is not an agent (who sees the tenant's only). */
async function callerAgentId(ctx: HandlerContext): Promise<number | null> {
  if (!ctx.user) return null;
  return (await ctx.host.db.findOne<AgentRow>('Agent', { where: { user_id: ctx.user.id } }))?.id ?? null;
}

/** One canned response of this owner (null: the tenant's), else 404. */
async function owned(ctx: HandlerContext, id: number, agentId: number | null): Promise<CannedResponseRow> {
  const row = await ctx.host.db.findOne<CannedResponseRow>('CannedResponse', { where: { id, agent_id: agentId } });
  if (!row) throw notFound('Canned response', id);
  return row;
}

async function create(ctx: HandlerContext, agentId: number | null, input: { short_code: string; content: string }) {
  const now = nowIso(ctx);
  return unique(() => ctx.host.db.create<CannedResponseRow>('CannedResponse', { agent_id: agentId, short_code: input.short_code, content: input.content, created_at: now, updated_at: now }), () => codeTaken(input.short_code));
}

async function update(ctx: HandlerContext, agentId: number | null, input: { id: number; short_code?: string; content?: string }) {
  const { id, ...fields } = input;
  await owned(ctx, id, agentId);
  await unique(() => ctx.host.db.update<CannedResponseRow>('CannedResponse', { ...fields, updated_at: nowIso(ctx) }, { where: { id, agent_id: agentId } }), () => codeTaken(input.short_code ?? ''));
  return owned(ctx, id, agentId);
}

async function remove(ctx: HandlerContext, agentId: number | null, id: number) {
  await owned(ctx, id, agentId);
  await ctx.host.db.destroy('CannedResponse', { where: { id, agent_id: agentId } });
  return { deleted: true, id };
}

export const cannedResponseOperations = {
  list_canned_responses: operation({
    description: "The tenant's canned responses and the caller's own, by short code; `prefix` keeps those whose short code starts with it (case-insensitive).",
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object(
      { prefix: Type.Optional(Type.String({ maxLength: 50, pattern: '^[A-Za-z0-9_-]*$' })), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })) },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: Type.Array(CannedResponse) }),
    http: { method: 'GET', path: '/live-chat/canned-responses' },
    handler: async (input, ctx) => {
      const mine = await callerAgentId(ctx);
      const where: Record<string, unknown> = { agent_id: mine === null ? null : { $or: [{ $is: null }, { $eq: mine }] } };
      if (input.prefix) where.short_code = { $iLike: startsWith(input.prefix) };
      return { data: await ctx.host.db.find<CannedResponseRow>('CannedResponse', { where, order: [['short_code', 'ASC'], ['id', 'ASC']], limit: input.limit ?? 50 }) };
    },
  }),
  get_canned_response: operation({
    description: "One canned response: the tenant's, or the caller's own.",
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: CannedResponse,
    http: { method: 'GET', path: '/live-chat/canned-responses/:id' },
    handler: async (input, ctx) => {
      const row = await ctx.host.db.findOne<CannedResponseRow>('CannedResponse', { where: { id: input.id } });
      if (!row || (row.agent_id !== null && row.agent_id !== (await callerAgentId(ctx)))) throw notFound('Canned response', input.id);
      return row;
    },
  }),
  create_canned_response: operation({
    description: 'Creates a canned response of the tenant, seen by every agent.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object(Fields, { additionalProperties: false }),
    output: CannedResponse,
    http: { method: 'POST', path: '/live-chat/canned-responses', success_status: 201 },
    handler: async (input, ctx) => create(ctx, null, input),
  }),
  update_canned_response: operation({
    description: "Changes a canned response of the tenant.",
    permission: MANAGE,
    ...NOT_TOOL,
    input: Update,
    output: CannedResponse,
    http: { method: 'PUT', path: '/live-chat/canned-responses/:id' },
    handler: async (input, ctx) => update(ctx, null, input),
  }),
  delete_canned_response: operation({
    description: 'Deletes a canned response of the tenant.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Deleted,
    http: { method: 'DELETE', path: '/live-chat/canned-responses/:id' },
    handler: async (input, ctx) => remove(ctx, null, input.id),
  }),
  create_my_canned_response: operation({
    description: "Creates one of the calling agent's own canned responses, seen by them alone.",
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object(Fields, { additionalProperties: false }),
    output: CannedResponse,
    http: { method: 'POST', path: '/live-chat/agents/me/canned-responses', success_status: 201 },
    handler: async (input, ctx) => create(ctx, (await myAgent(ctx)).id, input),
  }),
  update_my_canned_response: operation({
    description: "Changes one of the calling agent's own canned responses.",
    permission: REPLY,
    ...NOT_TOOL,
    input: Update,
    output: CannedResponse,
    http: { method: 'PUT', path: '/live-chat/agents/me/canned-responses/:id' },
    handler: async (input, ctx) => update(ctx, (await myAgent(ctx)).id, input),
  }),
  delete_my_canned_response: operation({
    description: "Deletes one of the calling agent's own canned responses.",
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Deleted,
    http: { method: 'DELETE', path: '/live-chat/agents/me/canned-responses/:id' },
    handler: async (input, ctx) => remove(ctx, (await myAgent(ctx)).id, input.id),
  }),
};
