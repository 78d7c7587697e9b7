/**
 * Teams (an addition beyond spec 2, README Teams): named groups of agents with their own queue. A
 * conversation routed to a team (by its widget's `team_id`, or PUT …/team) is given only to the
 * team's online agents, by the assignment rules of spec 2 (assignment.ts); an agent may be in several
 * teams. Deleting a team puts its conversations back in the general queue.
 */
import { operation, Type, type HandlerContext } from '../../../../sdk';
import { requeue } from '../assignment';
import { assignPending, changed, OPEN } from '../conversations';
import { agentById, conversationById, teamById, unique } from '../db';
import { chatErrors, errorCode, invalidState } from '../errors';
import { nowIso, type AgentRow, type ConversationRow, type TeamMemberRow, type TeamRow, type WidgetRow } from '../records';
import { Agent, Conversation, Team } from '../outputs';
import { Id } from '../schemas';

const MANAGE = 'live_chat.manage';
const VIEW = 'live_chat.view';
const REPLY = 'live_chat.reply';
const NOT_TOOL = { ai_tool: false } as const;
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Description = Type.Nullable(Type.String({ maxLength: 500 }));
const TeamWithAgents = Type.Composite([Team, Type.Object({ agents: Type.Array(Agent) })]);

const nameTaken = (name: string) => chatErrors.teamExists(`A team named "${name}" exists already.`);

async function withAgents(ctx: HandlerContext, team: TeamRow) {
  const members = await ctx.host.db.find<TeamMemberRow>('TeamMember', { where: { team_id: team.id }, limit: 1000 });
  const agents = members.length ? await ctx.host.db.find<AgentRow>('Agent', { where: { id: { $in: members.map((m) => m.agent_id) } }, order: [['id', 'ASC']], limit: 1000 }) : [];
  return { ...team, agents };
}

/** Routes a conversation to a team (or none): its agent stays only if a member; the queue runs. */
async function route(ctx: HandlerContext, c: ConversationRow, teamId: number | null): Promise<ConversationRow> {
  const moved = await ctx.host.db.update<ConversationRow>('Conversation', { team_id: teamId, updated_at: nowIso(ctx) }, { where: { id: c.id, status: c.status, agent_id: c.agent_id } });
  if (!moved) throw invalidState(`Conversation ${c.id} changed meanwhile; read it again.`, c.status);
  const routed = { ...c, team_id: teamId };
  if (teamId !== null && c.agent_id !== null && !(await ctx.host.db.findOne<TeamMemberRow>('TeamMember', { where: { team_id: teamId, agent_id: c.agent_id } }))) await requeue(ctx, routed);
  await assignPending(ctx);
  return changed(ctx, c.id, 'team');
}

export const teamOperations = {
  list_teams: operation({
    description: 'Teams of agents, each with its agents.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(TeamWithAgents) }),
    http: { method: 'GET', path: '/live-chat/teams' },
    handler: async (_input, ctx) => {
      const teams = await ctx.host.db.find<TeamRow>('Team', { order: [['id', 'ASC']], limit: 1000 });
      return { data: await Promise.all(teams.map((t) => withAgents(ctx, t))) };
    },
  }),
  get_team: operation({
    description: 'One team with its agents.',
    permission: VIEW,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: TeamWithAgents,
    http: { method: 'GET', path: '/live-chat/teams/:id' },
    handler: async (input, ctx) => withAgents(ctx, await teamById(ctx, input.id)),
  }),
  create_team: operation({
    description: 'Creates a team (no agents yet); its name is unique.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ name: Name, description: Type.Optional(Description) }, { additionalProperties: false }),
    output: TeamWithAgents,
    http: { method: 'POST', path: '/live-chat/teams', success_status: 201 },
    handler: async (input, ctx) => {
      const now = nowIso(ctx);
      const team = await unique(() => ctx.host.db.create<TeamRow>('Team', { name: input.name, description: input.description ?? null, created_at: now, updated_at: now }), () => nameTaken(input.name));
      return { ...team, agents: [] };
    },
  }),
  update_team: operation({
    description: "Renames a team or changes its description.",
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, name: Type.Optional(Name), description: Type.Optional(Description) }, { additionalProperties: false }),
    output: TeamWithAgents,
    http: { method: 'PUT', path: '/live-chat/teams/:id' },
    handler: async (input, ctx) => {
      const { id, ...fields } = input;
      await teamById(ctx, id);
      await unique(() => ctx.host.db.update<TeamRow>('Team', { ...fields, updated_at: nowIso(ctx) }, { where: { id } }), () => nameTaken(input.name ?? ''));
      return withAgents(ctx, await teamById(ctx, id));
    },
  }),
  delete_team: operation({
    description: 'Deletes a team: its conversations go back to the general queue, widgets routed to it route to nobody.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id }, { additionalProperties: false }),
    output: Type.Object({ deleted: Type.Boolean(), id: Type.Integer(), requeued: Type.Integer() }),
    http: { method: 'DELETE', path: '/live-chat/teams/:id' },
    handler: async (input, ctx) => {
      await teamById(ctx, input.id);
      // All at once: no conversation or widget is left naming a team that is gone.
      const requeued = await ctx.host.db.transaction(async (tx) => {
        const queued = await tx.update<ConversationRow>('Conversation', { team_id: null }, { where: { team_id: input.id, status: 'pending' } });
        await tx.update<ConversationRow>('Conversation', { team_id: null }, { where: { team_id: input.id } });
        await tx.update<WidgetRow>('Widget', { team_id: null }, { where: { team_id: input.id } });
        await tx.destroy('TeamMember', { where: { team_id: input.id } });
        await tx.destroy('Team', { where: { id: input.id } });
        return queued;
      });
      await assignPending(ctx);
      return { deleted: true, id: input.id, requeued };
    },
  }),
  add_team_agent: operation({
    description: 'Puts an agent in a team (an agent may be in several); the team\'s queue may hand them chats at once.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, agent_id: Id }, { additionalProperties: false }),
    output: TeamWithAgents,
    http: { method: 'POST', path: '/live-chat/teams/:id/agents', success_status: 200 },
    handler: async (input, ctx) => {
      const team = await teamById(ctx, input.id);
      await agentById(ctx, input.agent_id);
      // Adding twice is one membership (the unique pair); a concurrent add is the same answer.
      if (!(await ctx.host.db.findOne<TeamMemberRow>('TeamMember', { where: { team_id: team.id, agent_id: input.agent_id } }))) {
        await ctx.host.db.create<TeamMemberRow>('TeamMember', { team_id: team.id, agent_id: input.agent_id, created_at: nowIso(ctx) }).catch((err) => {
          if (errorCode(err) !== 'DB_CONFLICT') throw err;
        });
      }
      // The agent removed meanwhile: no membership of nobody stays.
      if (!(await ctx.host.db.findOne<AgentRow>('Agent', { where: { id: input.agent_id } }))) await ctx.host.db.destroy('TeamMember', { where: { agent_id: input.agent_id } });
      await assignPending(ctx);
      return withAgents(ctx, team);
    },
  }),
  remove_team_agent: operation({
    description: 'Takes an agent out of a team; the chats they hold stay theirs.',
    permission: MANAGE,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, agent_id: Id }, { additionalProperties: false }),
    output: TeamWithAgents,
    http: { method: 'DELETE', path: '/live-chat/teams/:id/agents/:agent_id' },
    handler: async (input, ctx) => {
      const team = await teamById(ctx, input.id);
      await agentById(ctx, input.agent_id);
      await ctx.host.db.destroy('TeamMember', { where: { team_id: team.id, agent_id: input.agent_id } });
      return withAgents(ctx, team);
    },
  }),
  route_to_team: operation({
    description: 'Routes a conversation to a team (team_id), or back to the general queue (null); an agent outside the team hands it back to the queue.',
    permission: REPLY,
    ...NOT_TOOL,
    input: Type.Object({ id: Id, team_id: Type.Union([Id, Type.Null()]) }, { additionalProperties: false }),
    output: Conversation,
    http: { method: 'PUT', path: '/live-chat/conversations/:id/team' },
    handler: async (input, ctx) => {
      const c = await conversationById(ctx, input.id);
      if (input.team_id !== null) await teamById(ctx, input.team_id);
      if (!OPEN.includes(c.status)) throw invalidState(`Conversation ${c.id} is ${c.status}; reopen it first.`, c.status);
      return route(ctx, c, input.team_id);
    },
  }),
};
