/**
 * The operations behind the built-in nodes. Each gets its node's config, placeholders already
 * resolved by the engine, as input. Two output conventions the engine reads (node authoring guide,
 * README.md): `branch` picks the outgoing connections whose condition_path matches, and
 * `suspend_seconds` suspends the run that long before the next node.
 */
import { operation, Type } from '../../../sdk';

const Any = Type.Unknown();
const Branch = Type.Object({ branch: Type.String() });

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN);
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function compare(left: unknown, operator: string, right: unknown): boolean {
  switch (operator) {
    case 'eq': return left === right || String(left) === String(right);
    case 'neq': return !(left === right || String(left) === String(right));
    case 'gt': return num(left) > num(right);
    case 'gte': return num(left) >= num(right);
    case 'lt': return num(left) < num(right);
    case 'lte': return num(left) <= num(right);
    case 'contains': return Array.isArray(left) ? left.some((x) => String(x) === String(right)) : String(left ?? '').includes(String(right ?? ''));
    case 'empty': return isEmpty(left);
    default: return !isEmpty(left);
  }
}

/**
 * What every node's operation declares: the engine runs it for the workflow's owner, who must hold
 * workflows.execute (spec 2, Execution), and it is reachable from no other edge.
 */
const NODE = { permission: 'workflows.execute', graphql_expose: false, ai_tool: false } as const;

export const operations = {
  fire_schedules: operation({
    // Runs from the schedule only (the bus refuses every other caller): on no edge.
    graphql_expose: false,
    ai_tool: false,
    description: "The one-minute schedule: asks the engine to start this tenant's schedule-triggered workflows due in that minute.",
    input: Type.Object({ schedule: Type.String(), scheduled_at: Type.String() }),
    output: Type.Object({ started: Type.Integer() }),
    async handler(input, ctx) {
      return (await ctx.host.call('workflow_engine.fire_schedules', { scheduled_at: input.scheduled_at })) as { started: number };
    },
  }),
  condition: operation({
    ...NODE,
    description: 'Condition node: compares left with right; answers branch "true" or "false".',
    input: Type.Object({
      left: Type.Optional(Any),
      operator: Type.Union(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'contains', 'empty', 'not_empty'].map((o) => Type.Literal(o))),
      right: Type.Optional(Any),
    }),
    output: Type.Object({ branch: Type.String(), result: Type.Boolean() }),
    async handler(input) {
      const result = compare(input.left, input.operator, input.right);
      return { branch: String(result), result };
    },
  }),
  switch: operation({
    ...NODE,
    description: 'Switch node: answers the branch named by value when it is one of cases, else "default".',
    input: Type.Object({ value: Type.Optional(Any), cases: Type.Array(Type.String(), { maxItems: 50 }) }),
    output: Branch,
    async handler(input) {
      const value = String(input.value ?? '');
      return { branch: input.cases.includes(value) ? value : 'default' };
    },
  }),
  delay: operation({
    ...NODE,
    description: 'Delay node: asks the engine to suspend the run for `seconds`.',
    input: Type.Object({ seconds: Type.Integer({ minimum: 1, maximum: 2_592_000 }) }),
    output: Type.Object({ suspend_seconds: Type.Integer() }),
    async handler(input) {
      return { suspend_seconds: input.seconds };
    },
  }),
  transform: operation({
    ...NODE,
    description: 'Transform node: answers {values}, its resolved values ({{nodes.<label>.output.values.<key>}}).',
    input: Type.Object({ values: Type.Record(Type.String(), Any) }),
    output: Type.Object({ values: Type.Record(Type.String(), Any) }),
    async handler(input) {
      return { values: input.values };
    },
  }),
  set_variable: operation({
    ...NODE,
    description: 'Set-variable node: answers {variables: {name: value}}, which the engine merges into context.variables.',
    input: Type.Object({ name: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$' }), value: Type.Optional(Any) }),
    output: Type.Object({ variables: Type.Record(Type.String(), Any) }),
    async handler(input) {
      return { variables: { [input.name]: input.value ?? null } };
    },
  }),
  merge: operation({
    ...NODE,
    description: 'Merge node: answers {inputs}, the outputs of the branches it joined by node label, which the engine hands it.',
    input: Type.Object({ inputs: Type.Record(Type.String(), Any) }),
    output: Type.Object({ inputs: Type.Record(Type.String(), Any) }),
    async handler(input) {
      return { inputs: input.inputs };
    },
  }),
  http_request: operation({
    ...NODE,
    description: "HTTP request node: calls the URL through host.fetch (only origins the tenant allowed; the SSRF rule applies).",
    input: Type.Object({
      url: Type.String({ minLength: 1, maxLength: 2048 }),
      method: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')]),
      headers: Type.Optional(Type.Record(Type.String(), Type.String())),
      body: Type.Optional(Any),
    }),
    output: Type.Object({ status: Type.Integer(), body: Any }),
    async handler(input, ctx) {
      const body = input.body === undefined ? undefined : typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
      const headers = {
        ...(body !== undefined && typeof input.body !== 'string' ? { 'content-type': 'application/json' } : {}),
        // The same key when the engine makes this step again after a crash: the receiver can dedupe.
        ...(ctx.idempotencyKey ? { 'idempotency-key': ctx.idempotencyKey } : {}),
        ...(input.headers ?? {}),
      };
      const res = await ctx.host.fetch(input.url, { method: input.method, headers, body });
      let parsed: unknown = res.body;
      try {
        parsed = JSON.parse(res.body);
      } catch {
        /* not JSON: the text */
      }
      return { status: res.status, body: parsed };
    },
  }),
  send_email: operation({
    ...NODE,
    description: 'Send-email node: a plain-text mail through the platform mail transport (mail.send).',
    input: Type.Object({ to: Type.String({ minLength: 3, maxLength: 320 }), subject: Type.String({ minLength: 1, maxLength: 255 }), body: Type.String({ maxLength: 100_000 }) }),
    output: Type.Object({ sent: Type.Boolean(), to: Type.String() }),
    async handler(input, ctx) {
      await ctx.host.call('mail.send', { to: input.to, subject: input.subject, text: input.body });
      return { sent: true, to: input.to };
    },
  }),
  send_notification: operation({
    ...NODE,
    description: 'Send-notification node: an in-app notification to user_id, or to every member when user_id is absent.',
    input: Type.Object({ user_id: Type.Optional(Type.Integer({ minimum: 1 })), title: Type.String({ minLength: 1, maxLength: 255 }), body: Type.Optional(Type.String({ maxLength: 65_535 })) }),
    output: Type.Object({ sent: Type.Boolean() }),
    async handler(input, ctx) {
      const target = input.user_id ? { user_id: input.user_id } : { all_members: true };
      await ctx.host.call('notifications.send', { ...target, type: 'workflow.notification', title: input.title, body: input.body ?? null, module: 'workflows' });
      return { sent: true };
    },
  }),
};
