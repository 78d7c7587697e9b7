/** AI tools for agents running in modules (spec 2, Tools; core/services/contributions/agent-tool-operations.ts). Not public: a module consumes them. */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

/** Longest an acting grant lasts: a run may wait for its reviewer this long. */
export const MAX_GRANT_TTL_SECONDS = 30 * 86_400;

export const toolsList = coreContract({
  name: 'tools.list',
  description:
    "The AI tools of the installed modules that the user of the current call may use, with their input schemas (spec 2, Tools); `only` (an agent role's allowed_tools patterns) narrows them, so only what the agent offers crosses into its sandbox.",
  input: Type.Object({ only: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 })) }, { additionalProperties: false }),
  output: Type.Object({ tools: Type.Array(Type.Unknown()) }),
});

// No output schema: the answer is the called operation's own, checked against that operation's output.
export const toolsCall = coreContract({
  name: 'tools.call',
  description: 'Runs an AI tool (or an operation the calling module consumes) as the user of the current call, caller edge "ai" (spec 2, Tool discovery rule 3).',
  input: Type.Object(
    {
      name: Type.String({ minLength: 3, maxLength: 200 }),
      input: Type.Optional(Type.Unknown()),
      grant: Type.Optional(Type.String({ minLength: 3, maxLength: 2000 })),
      bound_by: Type.Optional(Type.String({ minLength: 3, maxLength: 2000 })),
    },
    { additionalProperties: false },
  ),
});

export const toolsGrant = coreContract({
  name: 'tools.grant',
  description: 'A signed grant letting the calling module run tools.call later for the user of the current call (a paused graph run).',
  input: Type.Object({ ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: MAX_GRANT_TTL_SECONDS })) }, { additionalProperties: false }),
  output: Type.Object({ grant: Type.String(), expires_at: Type.String() }),
});
