/**
 * Turns a field binding into a resolver. Order of checks: the field's own permission (rule 4),
 * then whether the declaring module may reach the operation at all (rule 3: a module's schema can
 * only call what its manifest consumes, like its code) and whether a permission guards it, then the
 * bus, which checks the operation's permission, rate limit and input and writes the audit record.
 */
import { defaultFieldResolver, type GraphQLFieldResolver } from 'graphql';
import { matchesConsumes } from '../../../sdk/manifest';
import { busErrors } from '../../kernel/bus/errors';
import type { CoreOperation } from '../../kernel/bus/types';
import { forbidden, type MandiError } from '../../kernel/errors';
import type { TenantModules } from '../../kernel/modules/tenant-modules';
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

/**
 * Why no member may call the field at all, if so (checked once, at build): an operation reachable
 * from an edge always has a permission (DESIGN.md, wave 3), the field's own or the operation's,
 * unless its manifest says in open_to_members why every member may call it. A module's schema file
 * may bind any operation it consumes, core ones included, so this is the gateway's check, not only
 * the manifest's.
 */
export function unguardedRefusal(field: string, binding: FieldBinding, scope: ResolverScope): MandiError | undefined {
  const operation = binding.operation;
  if (!operation || binding.permission) return undefined;
  const declared = scope.modules.operation(operation)?.def;
  const def = declared ?? scope.core.get(operation);
  if (!def || def.permission || declared?.open_to_members) return undefined;
  return forbidden(`The field "${field}" calls "${operation}", which names no permission: no member may call it from GraphQL until the field or the operation names one.`, { field, operation });
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
