/** Tokens of a module's public routes (core/kernel/modules/public-tokens.ts; DESIGN.md, Host capabilities for modules). */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

export const publicTokensRegister = coreContract({
  name: 'public_tokens.register',
  description:
    "Makes a random token (32 characters) and opens the module's public routes (http.public) to it for the current tenant: requests to /api/<prefix>/... carrying it run in this tenant. The answer holds the token; the host keeps only its hash.",
  input: Type.Object({ label: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false }),
  output: Type.Object({ registered: Type.Boolean(), token: Type.String() }),
  public: true,
});

export const publicTokensRevoke = coreContract({
  name: 'public_tokens.revoke',
  description: "Closes the module's public routes to a token of the current tenant; requests carrying it then get 404.",
  input: Type.Object({ token: Type.String({ maxLength: 128 }) }, { additionalProperties: false }),
  output: Type.Object({ revoked: Type.Boolean() }),
  public: true,
});
