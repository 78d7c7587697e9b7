/**
 * Turns a field binding into a resolver. Order of checks: the field's own permission (rule 4),
 * then whether the declaring module may reach the operation at all (rule 3: a module's schema can
 * only call what its manifest consumes, like its code), then the bus, which checks the operation's
 * permission, rate limit and input and writes the audit record.
 */
import { defaultFieldResolver, type GraphQLFieldResolver } from 'graphql';
import { matchesConsumes } from '../../sdk/manifest';
import { busErrors } from '../bus/errors';
import type { CoreOperation } from '../bus/types';
import { forbidden, type MandiError } from '../errors';
import type { TenantModules } from '../modules/tenant-modules';
import type { Contribution } from './contributions';
import { fieldInput, type FieldBinding } from './field-bindings';
import type { GatewayContext } from './gateway-context';

export interface ResolverScope {
  modules: TenantModules;
  core: ReadonlyMap<string, CoreOperation>;
}

/** Why the declaring module may not call the operation, if it may not (checked once, at build). */
export function consumesRefusal(operation: string, c: Contribution, scope: ResolverScope): MandiError | undefined {
  const found = scope.modules.operation(operation);
  const owner = found?.module.alias;
  if (owner === c.declaredBy.alias || owner === c.alias) return undefined;
  const isPublic = found ? !!found.def.public : !!scope.core.get(operation)?.public;
  if (isPublic) return undefined;
  if (!found && !scope.core.has(operation)) return undefined; // absent: the bus answers OPERATION_NOT_FOUND
  if (matchesConsumes(c.declaredBy.manifest.api?.consumes ?? [], operation)) return undefined;
  return busErrors.notConsumed(c.declaredBy.alias, operation);
}

export function fieldResolver(
  field: string,
  binding: FieldBinding,
  opts: { writes: boolean; refusal?: MandiError },
): GraphQLFieldResolver<unknown, GatewayContext, Record<string, unknown>> {
  const { operation, permission } = binding;
  return (parent, args, ctx, info) => {
    if (permission && !ctx.can(permission)) {
      throw forbidden(`The field "${field}" requires the permission "${permission}".`, { field, permission });
    }
    if (!operation) return defaultFieldResolver(parent, args, ctx, info);
    if (opts.refusal) throw opts.refusal;
    const input = fieldInput(binding, parent, args);
    return opts.writes ? ctx.bus.write(operation, input) : ctx.bus.read(operation, input);
  };
}
