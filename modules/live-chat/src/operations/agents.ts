/**
 * Agents (spec 2, Live chat: /live-chat/agents…; Agent status). An agent is a member of the tenant
 * (user_id) with a chat capacity; `me` and `me/status` are the calling member's own record. Going
 * online, or a raised maximum, hands queued conversations out at once. `busy` is also set by the
 * platform when an agent reaches the maximum and lifted when a slot frees.
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { removeAgent } from '../agent-removal';
import { assignPending } from '../conversations';
import { agentById } from '../db';
import { chatErrors, notAnAgent, validation } from '../errors';
import { nowIso, type AgentRow } from '../records';
import { Agent } from '../outputs';
import { AgentStatus, Id } from '../schemas';

const MANAGE = 'live_chat.manage';
const VIEW = 'live_chat.view';
const REPLY = 'live_chat.reply';
const NOT_TOOL = { ai_tool: false } as const;
const Max = Type.Integer({ minimum: 1, maximum: 100 });

/** The calling member's agent record, its name kept in step with the member's. */
export async function myAgent(ctx: HandlerContext): Promise<AgentRow> {
  if (!ctx.user) throw notAnAgent();
  const agent = await ctx.host.db.findOne<AgentRow>('Agent', { where: { user_id: ctx.user.id } });
  if (!agent) throw notAnAgent();
  if (ctx.user.name && agent.name !== ctx.user.name) await ctx.host.db.update<AgentRow>('Agent', { name: ctx.user.name.slice(0, 100) }, { where: { id: agent.id } });
  return { ...agent, name: ctx.user.name ? ctx.user.name.slice(0, 100) : agent.name };
}

/** Sets an agent's status; coming online (or back below the maximum) takes queued conversations. */
async function setStatus(ctx: HandlerContext, agent: AgentRow, status: AgentRow['status']): Promise<AgentRow> {
  // Online at the maximum is busy (spec 2: busy, at maximum chats).
  const effective = status === 'online' && agent.current_chats_count >= agent.max_concurrent_chats ? 'busy' : status;
  await ctx.host.db.update<AgentRow>('Agent', { status: effective, last_active_at: nowIso(ctx) }, { where: { id: agent.id } });
  if (effective === 'online') await assignPending(ctx);
  return agentById(ctx, agent.id);
}

export const agentOperations = {
  list_agents: operation({
    description: 'Live chat agents with status and workload.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ status: Type.Optional(AgentStatus) }, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Agent) }),
    http: { method: 'GET', path: '/live-chat/agents' },
    handler: async (input, ctx) => ({ data: await ctx.host.db.find<AgentRow>('Agent', { where: input.status ? { status: input.status } : {}, order: [['id', 'ASC']], limit: 1000 }) }),
  }),
  create_agent: operation({
    description: 'Makes a member of the tenant a live chat agent (offline until they go online).',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ user_id: Id, max_concurrent_chats: Type.Optional(Max), name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
    output: Agent,
    http: { method: 'POST', path: '/live-chat/agents', success_status: 201 },
    handler: async (input, ctx) => {
      // Only a member answers chats (spec 2, Agent: user_id is a member); an ended membership removes the agent (../agent-removal.ts).
      const member = await ctx.host.call<{ active: boolean; name: string | null }>('platform.get_member', { user_id: input.user_id });
      if (!member.active) throw validation('user_id', `User ${input.user_id} is not an active member of this tenant.`);
      if (await ctx.host.db.findOne<AgentRow>('Agent', { where: { user_id: input.user_id } })) {
        throw chatErrors.agentExists(input.user_id);
      }
      const name = input.name ?? (member.name ?? `Agent ${input.user_id}`).slice(0, 100);
      return ctx.host.db.create<AgentRow>('Agent', { user_id: input.user_id, name, max_concurrent_chats: input.max_concurrent_chats ?? 5, status: 'offline', created_at: nowIso(ctx) });
    },
  }),
  me: operation({
    description: "The calling member's own agent record.",
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({}, { additionalProperties: false }),
    output: Agent,
    http: { method: 'GET', path: '/live-chat/agents/me' },
    handler: async (_input, ctx) => myAgent(ctx),
  }),
  set_my_status: operation({
    description: 'Sets the calling agent online, away, busy or offline; online takes queued chats.',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ status: AgentStatus }, { additionalProperties: false }),
    output: Agent,
    http: { method: 'PUT', path: '/live-chat/agents/me/status' },
    handler: async (input, ctx) => setStatus(ctx, await myAgent(ctx), input.status),
  }),
  get_agent: operation({
    description: 'One agent.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Agent,
    http: { method: 'GET', path: '/live-chat/agents/:id' },
    handler: async (input, ctx) => agentById(ctx, input.id),
  }),
  update_agent: operation({
    description: "Changes an agent's maximum of concurrent chats, name or status.",
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, max_concurrent_chats: Type.Optional(Max), name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), status: Type.Optional(AgentStatus) }, { additionalProperties: false }),
    output: Agent,
    http: { method: 'PUT', path: '/live-chat/agents/:id' },
    handler: async (input, ctx) => {
      const agent = await agentById(ctx, input.id);
      if (input.max_concurrent_chats !== undefined && input.max_concurrent_chats < agent.current_chats_count) {
        throw validation('max_concurrent_chats', `The agent has ${agent.current_chats_count} chats now; the maximum cannot be lower.`);
      }
      if (input.max_concurrent_chats !== undefined || input.name !== undefined) {
        // Conditional on the count read, so a concurrent assignment is not squeezed over the new maximum (the CHECK refuses it too).
        const changed = await ctx.host.db.update<AgentRow>(
          'Agent',
          { ...(input.max_concurrent_chats !== undefined ? { max_concurrent_chats: input.max_concurrent_chats } : {}), ...(input.name !== undefined ? { name: input.name } : {}) },
          { where: { id: agent.id, current_chats_count: agent.current_chats_count } },
        );
        if (!changed) throw chatErrors.busy(`Agent ${agent.id} is taking a chat right now; retry.`);
      }
      const fresh = await agentById(ctx, agent.id);
      return setStatus(ctx, fresh, input.status ?? (fresh.status === 'busy' ? 'online' : fresh.status));
    },
  }),
  delete_agent: operation({
    description: 'Removes an agent; their open conversations go back to the queue.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Type.Object({ deleted: Type.Boolean(), id: Type.Integer(), requeued: Type.Integer() }),
    http: { method: 'DELETE', path: '/live-chat/agents/:id' },
    handler: async (input, ctx) => {
      await agentById(ctx, input.id);
      return { deleted: true, id: input.id, requeued: await removeAgent(ctx, input.id) };
    },
  }),
};
