/**
 * What every resolver receives (spec 1, GraphQL rule 4): the user, the tenant id and the request,
 * plus a permission check by name for field-level rules and the request's bus calls.
 */
import type { Request } from 'express';
import { holdsPermission } from '../../kernel/auth/authenticate';
import type { UserRef } from '../../kernel/context';
import type { RequestBusCalls } from './bus-calls';

export interface GatewayContext {
  tenantId: string;
  ring: string;
  user: UserRef | null;
  permissions: ReadonlySet<string> | undefined;
  requestId: string | undefined;
  request: Request;
  /** Whether the user holds the permission (super admins and "*" hold every one). */
  can(permission: string): boolean;
  bus: RequestBusCalls;
}

export function canFor(user: UserRef | null, permissions: ReadonlySet<string> | undefined): (permission: string) => boolean {
  return (permission) => !!user && holdsPermission(user, permissions, permission);
}
