/**
 * `notifications.send` and `notifications.resolve` (core/services/notifications/send-operation.ts; spec 1,
 * Notification: "send to one user id, to a list of user ids, or to all members of the tenant.
 * Required input: type, title."). The checks a schema cannot say clearly (exactly one target,
 * action_url a console path) are core/services/notifications/send-input.ts's.
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

export const SEVERITIES = ['info', 'success', 'warning', 'error'] as const;
export const MAX_RECIPIENTS_PER_LIST = 1000;

const nullableString = (max: number) => Type.Optional(Type.Nullable(Type.String({ maxLength: max })));

export const notificationsSend = coreContract({
  name: 'notifications.send',
  description: 'Sends an in-app notification (stored, broadcast in real time, pushed to devices) to user_id, user_ids or all_members. Returns {count, notifications}.',
  input: Type.Object(
    {
      user_id: Type.Optional(Type.Integer({ minimum: 1 })),
      user_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_RECIPIENTS_PER_LIST })),
      all_members: Type.Optional(Type.Boolean()),
      holders_of: Type.Optional(Type.String({ minLength: 3, maxLength: 100, pattern: '^[a-z0-9_-]+\\.[a-z0-9_.-]+$' })),
      type: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$' }),
      title: Type.String({ minLength: 1, maxLength: 255 }),
      body: nullableString(65_535),
      module: nullableString(50),
      icon: nullableString(50),
      severity: Type.Optional(Type.Unsafe<(typeof SEVERITIES)[number]>({ enum: [...SEVERITIES] })),
      action_url: nullableString(2048),
      action_label: nullableString(100),
      data: Type.Optional(Type.Unknown()),
      group_key: nullableString(100),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ count: Type.Optional(Type.Integer()), notifications: Type.Optional(Type.Array(Type.Unknown())) }),
  permission: 'notifications.send',
  public: true,
});

export const notificationsResolve = coreContract({
  name: 'notifications.resolve',
  description: "Marks read, for every recipient, this module's notifications (module = the calling module) with the given group_key. Returns {count}.",
  input: Type.Object({ group_key: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false }),
  output: Type.Object({ count: Type.Integer() }),
  public: true,
});
