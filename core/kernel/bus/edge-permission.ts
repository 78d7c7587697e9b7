/**
 * A permission checked once per request. An edge that has checked it for the call's principal (a
 * module route, core/kernel/modules/module-routes.ts) says so here, and the bus does not evaluate the same
 * permission again for that call. The fact is kept beside the context object, never in it: nothing
 * a module can send or copy carries it, a context copied for a nested call (`{...ctx}`) starts
 * without it, and a module's own calls are checked as before (api.consumes, core/kernel/bus/bus.ts).
 */
import { holdsPermission } from '../auth/authenticate';
import type { CallContext } from './types';

interface Checked {
  permission: string;
  user: CallContext['user'];
  permissions: CallContext['permissions'];
}

const checked = new WeakMap<CallContext, Checked>();

/** Whether ctx's principal holds `permission`; when it does, the bus takes it as checked for calls made with ctx. */
export function edgePermits(ctx: CallContext, permission: string): boolean {
  if (!holdsPermission(ctx.user, ctx.permissions, permission)) return false;
  checked.set(ctx, { permission, user: ctx.user, permissions: ctx.permissions });
  return true;
}

/** Whether an edge has already found `permission` held by ctx's principal (the same user and permission set still). */
export function checkedAtEdge(ctx: CallContext, permission: string): boolean {
  const fact = checked.get(ctx);
  return fact !== undefined && fact.permission === permission && fact.user === ctx.user && fact.permissions === ctx.permissions;
}
