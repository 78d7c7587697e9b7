/**
 * Agent endpoints (spec 2, Endpoints: AI, Agent; Authentication 3). `GET /ai/agent/tools` is the
 * platform's own (the catalog of every tool the user may use); the rest are here. Bodies the spec
 * leaves "not shown" are documented in the module's README ("Agent").
 */
import { operation, Type } from '../../../../sdk';
import { CONFIGURE, VIEW } from '../permissions';
import { runChat, type AgentEvent, type ChatInput } from './loop';
import { deleteRole, listRoles, putRole, setDefaultRole } from './roles';

export const ROLE_ID = Type.String({ pattern: '^[a-z][a-z0-9_-]{0,63}$', description: 'lowercase letters, digits, _ and -' });
const TOOL_PATTERN = Type.String({ pattern: '^(\\*|[a-z][a-z0-9_]*\\.(\\*|[A-Za-z0-9_]+))$', description: 'an exact tool name, `module.*` or `*`' });

const RoleSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  system_prompt: Type.String(),
  allowed_tools: Type.Array(Type.String()),
  temperature: Type.Number(),
  max_tokens: Type.Integer(),
  provider_id: Type.Nullable(Type.String()),
});

const RoleFields = {
  name: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Type.String({ maxLength: 1000 })),
  system_prompt: Type.String({ minLength: 1, maxLength: 20_000, description: 'may use {{tenant_name}}' }),
  allowed_tools: Type.Array(TOOL_PATTERN, { maxItems: 200 }),
  temperature: Type.Number({ minimum: 0, maximum: 2 }),
  max_tokens: Type.Integer({ minimum: 1, maximum: 32_000 }),
  provider_id: Type.Optional(Type.Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
};

const ChatBody = Type.Object(
  {
    message: Type.String({ minLength: 1, maxLength: 20_000 }),
    role: Type.Optional(ROLE_ID),
    conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
);

const ToolCallSchema = Type.Object({
  name: Type.String(),
  input: Type.Unknown(),
  output: Type.Optional(Type.Unknown()),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
});

export const ChatAnswerSchema = Type.Object({
  message: Type.String(),
  tool_calls: Type.Array(ToolCallSchema),
  usage: Type.Object({ input_tokens: Type.Integer(), output_tokens: Type.Integer(), total_tokens: Type.Integer(), cost: Type.String() }),
  provider: Type.String(),
  model: Type.String(),
  conversation_id: Type.String(),
  role: Type.String(),
  stop_reason: Type.StringEnum(['answered', 'max_rounds', 'max_tokens']),
});

/** A streamed event as SSE: `token` {delta}, `tool_call` {id, name, input}, `tool_result` {id, name, output | error}. */
function sse(e: AgentEvent): { event: string; data: unknown } {
  if (e.type === 'text') return { event: 'token', data: { delta: e.delta } };
  if (e.type === 'tool_call') return { event: 'tool_call', data: { id: e.call.id, name: e.call.name, input: e.call.arguments } };
  const { type: _type, ...rest } = e;
  return { event: 'tool_result', data: rest };
}

export const agentOperations = {
  list_roles: operation({
    description: 'The agent roles (spec 2, Agent role): shipped and custom, and the default role.',
    permission: VIEW,
    ai_tool: false,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(RoleSchema), default_role: Type.String() }),
    http: { method: 'GET', path: '/ai/agent/roles' },
    handler: (_input, ctx) => listRoles(ctx),
  }),
  // Before put_role: /ai/agent/roles/default is this route, not a role named "default".
  set_default_role: operation({
    description: 'Sets the role a chat without `role` uses.',
    permission: CONFIGURE,
    ai_tool: false,
    input: Type.Object({ role_id: ROLE_ID }, { additionalProperties: false }),
    output: Type.Object({ default_role: Type.String() }),
    http: { method: 'PUT', path: '/ai/agent/roles/default' },
    handler: (input, ctx) => setDefaultRole(ctx, input.role_id),
  }),
  put_role: operation({
    description: 'Creates a custom role or customises one (shipped roles included).',
    permission: CONFIGURE,
    ai_tool: false,
    input: Type.Object({ id: ROLE_ID, ...RoleFields }, { additionalProperties: false }),
    output: RoleSchema,
    http: { method: 'PUT', path: '/ai/agent/roles/:id' },
    handler: (input, ctx) => putRole(ctx, input),
  }),
  delete_role: operation({
    description: 'Deletes a custom role; shipped roles cannot be deleted (409).',
    permission: CONFIGURE,
    ai_tool: false,
    input: Type.Object({ id: ROLE_ID }, { additionalProperties: false }),
    output: Type.Object({ deleted: Type.Boolean(), id: Type.String() }),
    http: { method: 'DELETE', path: '/ai/agent/roles/:id' },
    handler: (input, ctx) => deleteRole(ctx, input.id),
  }),
  chat: operation({
    description: "Asks the agent: the tool-calling loop with the role's tools, run as the user.",
    permission: VIEW,
    ai_tool: false,
    graphql_expose: false,
    input: ChatBody,
    output: ChatAnswerSchema,
    http: { method: 'POST', path: '/ai/agent/chat', success_status: 200 },
    handler: (input, ctx) => runChat(ctx, input as ChatInput, null),
  }),
  agent_reply: operation({
    description:
      "The agent's answer for another module's conversation with someone who is not a user (a chat widget's visitor): the role's prompt and the caller's instructions, no tools (there is no user to act as), memory kept per conversation for the calling module.",
    permission: VIEW,
    ai_tool: false,
    graphql_expose: false,
    input: Type.Object(
      {
        message: Type.String({ minLength: 1, maxLength: 20_000 }),
        role: Type.Optional(ROLE_ID),
        conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        instructions: Type.Optional(Type.String({ maxLength: 4_000, description: "added after the role's system prompt" })),
      },
      { additionalProperties: false },
    ),
    output: ChatAnswerSchema,
    handler: ({ instructions, ...input }, ctx) => runChat(ctx, input, null, { owner: { module: ctx.caller }, tools: false, instructions }),
  }),
  chat_stream: operation({
    description: 'The same chat, streamed as server-sent events: token, tool_call, tool_result, then done with the whole answer.',
    permission: VIEW,
    ai_tool: false,
    graphql_expose: false,
    input: ChatBody,
    output: Type.Null(),
    http: { method: 'POST', path: '/ai/agent/chat/stream', response: { kind: 'stream', timeout_s: 300 } },
    async handler(input, ctx) {
      const stream = ctx.stream!;
      const answer = await runChat(ctx, input as ChatInput, async (e) => {
        if (!stream.closed) await stream.event(sse(e));
      });
      if (!stream.closed) await stream.event({ event: 'done', data: answer });
      return null;
    },
  }),
};
