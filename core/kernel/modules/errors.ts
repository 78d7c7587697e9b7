/** Errors of installing and loading modules in a tenant (DESIGN.md, Modules). */
import { defineErrors } from '../errors';

export const moduleErrors = defineErrors('modules', {
  contractBroken: {
    code: 'MODULE_CONTRACT', status: 422,
    doc: 'The module says it implements a provider contract (api.implements) but its operations do not keep it; details.problems lists how.',
    message: (key: string, issues: string, _alias: string, _problems: unknown) => `${key} does not keep its provider contracts: ${issues}`,
    details: (_key: string, _issues: string, alias: string, problems: unknown) => ({ module: alias, problems }),
  },
  dependencies: {
    code: 'MODULE_DEPENDENCIES', status: 422,
    doc: "The module's dependencies are not met in the tenant (missing, or at versions outside their ranges); details.problems names them.",
    message: (problems: { message: string }[]) => problems.map((p) => p.message).join('; '),
    details: (problems: { message: string }[]) => ({ problems }),
  },
  inUse: {
    code: 'MODULE_IN_USE', status: 409,
    doc: 'Other installed modules depend on it: uninstall those first (details.dependents).',
    message: (alias: string, dependents: string[], _aliases: string[]) => `Module ${alias} is needed by ${dependents.join(', ')}; uninstall those first.`,
    details: (_alias: string, _dependents: string[], aliases: string[]) => ({ dependents: aliases }),
  },
  incompatible: {
    code: 'MODULE_INCOMPATIBLE', status: 422,
    doc: "The module's compatibility.platform range does not include this platform's version.",
    message: (message: string, _module: string, _version: string) => message,
    details: (_message: string, module: string, version: string) => ({ module, version }),
  },
  fileOutside: {
    code: 'MODULE_FILE_OUTSIDE', status: 400,
    doc: "A path a module named points outside the module's own files.",
    message: (rel: string) => `"${rel}" is outside the module.`,
  },
  notBuilt: {
    code: 'MODULE_NOT_BUILT', status: 422,
    doc: 'A module folder has no built bundle: run `mandi module build` in it.',
    message: (name: string, version: string, main: string, dir: string) => `Module ${name}@${version} has no bundle at ${main}: run \`mandi module build\` in ${dir}.`,
  },
  publicRouteMissing: {
    code: 'ROUTE_NOT_FOUND', status: 404,
    message: () => 'No public route answers this path: the route does not exist, or its token is unknown or revoked.',
  },
  publicMethodNotAllowed: {
    code: 'METHOD_NOT_ALLOWED', status: 405,
    message: (method: string, allowed: string[]) => `This public route does not take ${method}; it takes ${allowed.join(', ')}.`,
    details: (_method: string, allowed: string[]) => ({ allowed }),
  },
  originNotAllowed: {
    code: 'ORIGIN_NOT_ALLOWED', status: 403,
    doc: "A browser page's origin is not among those the public route's CORS rule allows.",
    message: (origin: string, method: string) => `Pages on ${origin} may not call this route with ${method}.`,
    details: (origin: string) => ({ origin }),
  },
  notQuarantined: {
    code: 'NOT_QUARANTINED', status: 404,
    doc: 'The module named is not quarantined, so there is nothing to release.',
    message: (key: string) => `Module ${key} is not quarantined.`,
    details: (key: string) => ({ module: key }),
  },
  publicTokenLimit: {
    code: 'PUBLIC_TOKEN_LIMIT', status: 422,
    doc: "The tenant holds the most public tokens of the module it may (PUBLIC_TOKEN_LIMIT): revoke unused ones first.",
    message: (limit: number, alias: string) => `This tenant holds ${limit} public tokens of module "${alias}" already (PUBLIC_TOKEN_LIMIT); revoke unused ones first.`,
    details: (limit: number) => ({ limit }),
  },
  notImplementing: {
    code: 'PROVIDER_NOT_IMPLEMENTING', status: 422,
    doc: 'The module chosen as a contract\'s provider is not an installed implementation of it (details.candidates lists those that are).',
    message: (module: string, contractId: string, _contract: string, candidates: string[]) =>
      `Module "${module}" is not an installed implementation of ${contractId}; installed: ${candidates.join(', ') || 'none'}.`,
    details: (module: string, _contractId: string, contract: string, candidates: string[]) => ({ contract, module, candidates }),
  },
  streamLimit: {
    code: 'STREAM_LIMIT', status: 429,
    doc: 'The tenant has the most streamed responses open on this node it may (MODULE_STREAMS_PER_TENANT); close one or retry shortly.',
    message: (held: number, _limit: number) =>
      `This tenant already has ${held} streamed responses open on this node (MODULE_STREAMS_PER_TENANT); close one or retry shortly.`,
    details: (_held: number, limit: number) => ({ limit }),
  },
  memoryOverCap: {
    code: 'MODULE_MEMORY_OVER_CAP', status: 422,
    doc: "The module asks for more isolate memory (limits.memory_mb) than the platform grants (SANDBOX_MAX_MEMORY_MB).",
    message: (name: string, version: string, asked: number, max: number) =>
      `${name}@${version} asks for limits.memory_mb ${asked}, over this platform's cap of ${max} MB (SANDBOX_MAX_MEMORY_MB); lower it in module.json.`,
    details: (name: string, version: string, asked: number, max: number) => ({ module: name, version, memory_mb: asked, max_memory_mb: max }),
  },
  quarantined: {
    code: 'MODULE_QUARANTINED', status: 503,
    message: (key: string, until: string, reason: string, _entry: Record<string, unknown>) =>
      `Module ${key} is quarantined until ${until}: it crashed the sandbox (${reason}). A platform admin can lift it with DELETE /api/v1/registry/quarantine/${key}.`,
    details: (_key: string, _until: string, _reason: string, entry: Record<string, unknown>) => ({ ...entry }),
  },
  publicPrefixTaken: {
    code: 'PUBLIC_PREFIX_TAKEN', status: 409,
    doc: 'Another module already owns an overlapping public route prefix on this platform (a prefix has one owner across every ring and tenant).',
    message: (alias: string, prefix: string, owner: string, owned: string) =>
      `Module ${alias} cannot serve public routes under /api/${prefix}: /api/${owned} belongs to module ${owner} on this platform (a public prefix has one owner across every ring and tenant); choose another prefix.`,
    details: (_alias: string, prefix: string, owner: string, owned: string) => ({ prefix, owner, owned_prefix: owned }),
  },
  publicPrefixReserved: {
    code: 'PUBLIC_PREFIX_RESERVED', status: 422,
    doc: "A module's public route prefix is one the platform keeps for itself (details.prefix).",
    message: (alias: string, prefix: string, reason: string) => `Module ${alias} cannot serve public routes under /api/${prefix}: ${reason}.`,
    details: (_alias: string, prefix: string) => ({ prefix }),
  },
});
