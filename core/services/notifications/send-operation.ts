/**
 * `notifications.send` on the bus: public, so any module may call it without listing it in
 * api.consumes (spec 1: "callable by any module without registration"). Edge callers acting for a
 * user (GraphQL, workflows, AI tools) need the permission notifications.send, so an end user cannot
 * message every member of a tenant just because some edge exposes core operations. A module sends
 * only under its own name (`module`: its alias, or null): the name is what notifications.resolve
 * and the members' `?module=` filter trust, so another module's would let it pass requests off as
 * that module's, which that module's own resolve would then mark read.
 */
import { notificationsResolve, notificationsSend } from '../../../sdk/contracts/platform';
import type { Bus } from '../../kernel/bus/bus';
import { defineCoreOperation } from '../../kernel/bus/core-operation';
import { forbidden } from '../../kernel/errors';
import type { NotificationService } from './notification-service';

export const SEND_OPERATION = notificationsSend.name;
export const RESOLVE_OPERATION = notificationsResolve.name;

export function registerSendOperation(bus: Bus, service: NotificationService): void {
  bus.registerCore(defineCoreOperation(notificationsSend, (input, ctx, caller) => {
    if (caller.kind === 'module' && input.module != null && input.module !== caller.alias) {
      throw forbidden(`Module "${caller.alias}" sends notifications only under its own name (module: "${caller.alias}" or null).`, { module: input.module });
    }
    return service.send(ctx.tenantId, input);
  }));
  // A module resolves only notifications it sent as itself (module = its alias): never another
  // module's, whatever group key it names. Edges have no module, so only modules may call it.
  bus.registerCore(defineCoreOperation(notificationsResolve, (input, ctx, caller) => {
    if (caller.kind !== 'module') throw forbidden('Only a module resolves its own notifications.');
    return service.resolve(ctx.tenantId, caller.alias, input.group_key);
  }));
}
