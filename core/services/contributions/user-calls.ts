/**
 * Bus calls made by the catalog endpoints for the requesting user (DESIGN.md, Bus): the operation's
 * permission, the tenant's installs, rate limits and audit apply exactly as for a module's REST route.
 */
import type { Bus } from '../../kernel/bus/bus';
import { currentContext } from '../../kernel/context';

/** `coerce`: the input came from a query string, so strings are converted to the schema's types. */
export type UserCall = (op: string, input: unknown, opts?: { coerce?: boolean }) => Promise<unknown>;

export function userCalls(bus: Bus): UserCall {
  return (op, input, opts) => {
    const ctx = currentContext()!;
    const callCtx = { tenantId: ctx.tenant!.id, user: ctx.user ?? null, permissions: ctx.permissions, requestId: ctx.requestId };
    return bus.call({ kind: 'edge', via: 'http' }, op, input, callCtx, { coerce: opts?.coerce ?? false });
  };
}
