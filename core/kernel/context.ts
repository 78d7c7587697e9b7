/**
 * Request context carried with AsyncLocalStorage: whatever runs on behalf of a request (bus calls,
 * data access, jobs enqueued) can ask which tenant and user it serves without threading arguments.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface TenantRef {
  id: string;
  name: string;
  status: string;
  ring: string;
}

export interface UserRef {
  id: number;
  email: string;
  name: string;
  isSuperAdmin: boolean;
}

export interface RequestContext {
  requestId?: string;
  tenant?: TenantRef;
  user?: UserRef;
  /** Permission names the user holds in the tenant (super admins hold all). */
  permissions?: Set<string>;
  /** Id of the access token that authenticated the request. */
  tokenId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}
