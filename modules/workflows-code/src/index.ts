/**
 * workflows_code: the code node's expression evaluator (spec 2: the code node runs in the sandbox,
 * never in the host), a module of its own so it has an isolate of its own. Each expression runs in a
 * context made for it (host.evaluate): it sees `data` and its placeholders' values, nothing of this
 * module, another evaluation or the host. A runaway expression is stopped by this module's time
 * limit; the built-in nodes of `workflows` run in another isolate and keep going meanwhile.
 * Declared here; `mandi module build` writes module.json from it.
 */
import { defineModule, operation, Type } from '../../../sdk';
import { placeholderInputs } from './placeholder-inputs';

export default defineModule({
  name: 'workflows_code',
  version: '1.0.0',
  description: "Evaluates the workflow code node's JavaScript expressions in a sandbox isolate of their own.",
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  operations: {
    evaluate: operation({
      // The code node's evaluator: reached through that node only, run for an owner who may execute workflows.
      permission: 'workflows.execute',
      graphql_expose: false,
      ai_tool: false,
      description: 'Evaluates a JavaScript expression over `data` and the values of its `{{path}}` placeholders (`placeholders`, by path), each in a fresh context; answers {result} (JSON).',
      input: Type.Object({
        expression: Type.String({ minLength: 1, maxLength: 10_000 }),
        data: Type.Optional(Type.Unknown()),
        placeholders: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
      output: Type.Object({ result: Type.Unknown() }),
      async handler(input, ctx) {
        const { expression, inputs } = placeholderInputs(input.expression, input.placeholders ?? {});
        const result = await ctx.host.evaluate(expression, { ...inputs, data: input.data ?? null });
        return { result: result === undefined ? null : result };
      },
    }),
  },
  // A loop is stopped here; 2 s is ample for an expression.
  limits: { memory_mb: 64, timeout_ms: 2_000 },
});
