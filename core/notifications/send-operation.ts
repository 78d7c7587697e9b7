/**
 * `notifications.send` on the bus: public, so any module may call it without listing it in
 * api.consumes (spec 1: "callable by any module without registration"). Edge callers acting for a
 * user (GraphQL, workflows, AI tools) need the permission notifications.send, so an end user cannot
 * message every member of a tenant just because some edge exposes core operations. A module sends
 * only under its own name (`module`: its alias, or null): the name is what notifications.resolve
 * and the members' `?module=` filter trust, so another module's would let it pass requests off as
 * that module's, which that module's own resolve would then mark read.
 */
import type { Bus } from '../bus/bus';
import { forbidden } from '../errors';
import type { NotificationService } from './notification-service';
import { SEND_INPUT_SCHEMA, SEND_OUTPUT_SCHEMA, type SendInput } from './send-input';

export const SEND_OPERATION = 'notifications.send';
export const RESOLVE_OPERATION = 'notifications.resolve';

export function registerSendOperation(bus: Bus, service: NotificationService): void {
  bus.registerCore({
    name: SEND_OPERATION,
    description: 'Sends an in-app notification (stored, broadcast in real time, pushed to devices) to user_id, user_ids or all_members. Returns {count, notifications}.',
    input: SEND_INPUT_SCHEMA,
    output: SEND_OUTPUT_SCHEMA,
    permission: 'notifications.send',
    public: true,
    handler: (input: SendInput, ctx, caller) => {
      if (caller.kind === 'module' && input.module != null && input.module !== caller.alias) {
        throw forbidden(`Module "${caller.alias}" sends notifications only under its own name (module: "${caller.alias}" or null).`, { module: input.module });
      }
      return service.send(ctx.tenantId, input);
    },
  });
  // A module resolves only notifications it sent as itself (module = its alias): never another
  // module's, whatever group key it names. Edges have no module, so only modules may call it.
  bus.registerCore({
    name: RESOLVE_OPERATION,
    description: "Marks read, for every recipient, this module's notifications (module = the calling module) with the given group_key. Returns {count}.",
    input: { type: 'object', required: ['group_key'], additionalProperties: false, properties: { group_key: { type: 'string', minLength: 1, maxLength: 100 } } },
    output: { type: 'object', required: ['count'], properties: { count: { type: 'integer' } } },
    public: true,
    handler: (input: { group_key: string }, ctx, caller) => {
      if (caller.kind !== 'module') throw forbidden('Only a module resolves its own notifications.');
      return service.resolve(ctx.tenantId, caller.alias, input.group_key);
    },
  });
}
