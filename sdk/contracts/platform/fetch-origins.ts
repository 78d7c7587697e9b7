/** `fetch_origins.add` (core/kernel/modules/fetch-origin-operations.ts): an origin for host.fetch, granted while a tenant admin configures the module. */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

export const fetchOriginsAdd = coreContract({
  name: 'fetch_origins.add',
  description:
    "Grants the calling module an origin (scheme, host, port) for host.fetch in this tenant, while serving a user who holds modules.manage or the calling module's <alias>.configure. Answers {origin, module, added}.",
  input: Type.Object({ origin: Type.String({ maxLength: 500 }) }, { additionalProperties: false }),
  output: Type.Object({ origin: Type.String(), module: Type.String(), added: Type.Boolean() }),
  public: true,
});
