/**
 * The first word of the platform's own bus operations (`secrets.get`, `jobs.enqueue`, ...). A module's
 * alias prefixes its operations, so a module named after one of these would put its operations beside
 * the platform's: callers could not tell `secrets.get` of the host from the module's. The bus refuses
 * to register a core operation outside this list (core/kernel/bus/bus.ts), so the list cannot fall behind.
 */
export const PLATFORM_NAMESPACES: ReadonlySet<string> = new Set([
  'data',
  'documents',
  'fetch_origins',
  'files',
  'jobs',
  'mail',
  'notifications',
  'platform',
  'public_tokens',
  'realtime',
  'secrets',
  'settings',
  'tenants',
  'tools',
  'webhooks',
  'workflow_engine',
]);

/**
 * What a handler's `ctx.caller` says for callers that are not modules (core/kernel/bus/types.ts,
 * guestCallerName): a module of one of these names would pass for a REST route, a GraphQL field, a
 * workflow step or the platform itself wherever a handler tells callers apart by name.
 */
export const NON_MODULE_CALLERS: ReadonlySet<string> = new Set(['core', 'graphql', 'http', 'workflow']);

/** Why `alias` cannot be a module's name, or undefined when it can. */
export function platformNamespaceProblem(alias: string): string | undefined {
  if (NON_MODULE_CALLERS.has(alias)) return `"${alias}" is reserved: handlers see it as ctx.caller for calls that come from no module; choose another alias`;
  if (!PLATFORM_NAMESPACES.has(alias)) return undefined;
  return `"${alias}" is reserved: the platform's own operations are named "${alias}.<method>"; choose another alias, e.g. "${alias}_<what it does>"`;
}
