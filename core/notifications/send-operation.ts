/**
 * `notifications.send` on the bus: public, so any module may call it without listing it in
 * api.consumes (spec 1: "callable by any module without registration"). Edge callers acting for a
 * user (GraphQL, workflows, AI tools) need the permission notifications.send, so an end user cannot
 * message every member of a tenant just because some edge exposes core operations.
 */
import type { Bus } from '../bus/bus';
import type { NotificationService } from './notification-service';
import { SEND_INPUT_SCHEMA, SEND_OUTPUT_SCHEMA, type SendInput } from './send-input';

export const SEND_OPERATION = 'notifications.send';

export function registerSendOperation(bus: Bus, service: NotificationService): void {
  bus.registerCore({
    name: SEND_OPERATION,
    description: 'Sends an in-app notification (stored, broadcast in real time, pushed to devices) to user_id, user_ids or all_members. Returns {count, notifications}.',
    input: SEND_INPUT_SCHEMA,
    output: SEND_OUTPUT_SCHEMA,
    permission: 'notifications.send',
    public: true,
    handler: (input: SendInput, ctx) => service.send(ctx.tenantId, input),
  });
}
