/** orders operations: notification rules, their test sends and send log. */
import { operation, Type } from '../../../../sdk';
import { Attempted, CountedList, DataList, Deleted, RuleTest, RuleView, row } from '../outputs';
import { LogPageProps, recordInput, RecordId, ScheduleTrigger, Template, Uuid } from '../schemas';
import { testRule } from '../notification-dispatch';
import { retryDueSends } from '../notification-retry';
import { createRule, deleteRule, getRule, listRules, listSends, updateRule } from '../notification-rules';

const Channel = Type.StringEnum(['sms', 'whatsapp', 'email', 'in_app']);
/** A notification rule as created; an update may give any of these. */
const RuleFields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  event: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'order.created, order.status_changed, order.fulfilled, order.delivered, … (orders.* accepted)',
  }),
  channel: Channel,
  recipient_type: Type.Optional(
    Type.StringEnum(['customer', 'custom', 'user', 'staff'], {
      description: 'sms/whatsapp/email: customer or custom; in_app: user or staff',
    }),
  ),
  recipient: Type.Optional(
    Type.String({
      minLength: 3,
      maxLength: 254,
      description: 'recipient_type custom: a phone number (sms, whatsapp) or an email address (email)',
    }),
  ),
  recipient_user_id: Type.Optional(Type.Integer({ minimum: 1, description: "recipient_type user: the platform user's id" })),
  subject: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'email subject / in-app title, placeholders allowed; default "Order {{order_number}}: {{status}}"',
    }),
  ),
  template: Template,
  conditions: Type.Optional(
    Type.Unsafe<Record<string, unknown>>({
      type: 'object',
      maxProperties: 20,
      description:
        'all must hold: status, old_status, new_status, payment_status, fulfillment_status, currency, source, carrier_module (string or list), is_cod (boolean), total_gte/total_gt/total_lte/total_lt (decimal)',
    }),
  ),
  is_active: Type.Optional(Type.Boolean()),
};
const RuleInput = recordInput('rule_id', RecordId);

export const notificationOperations = {
  create_notification_rule: operation({
    description:
      'Creates a notification rule {name, event, channel, recipient_type, template, conditions, is_active}; unknown placeholders and channels whose provider module is not installed are refused.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(RuleFields, { additionalProperties: false }),
    output: RuleView,
    http: { method: 'POST', path: '/order-notification-rules' },
    handler: createRule,
  }),
  list_notification_rules: operation({
    description: 'Notification rules, oldest first; filters event, channel, is_active.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        event: Type.Optional(Type.String({ maxLength: 100 })),
        channel: Type.Optional(Channel),
        is_active: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    output: DataList(row('NotificationRule')),
    http: { method: 'GET', path: '/order-notification-rules' },
    handler: listRules,
  }),
  get_notification_rule: operation({
    description: 'One notification rule.',
    permission: 'orders.view',
    ai_tool: false,
    input: RuleInput,
    output: row('NotificationRule'),
    http: { method: 'GET', path: '/order-notification-rules/:rule_id' },
    handler: getRule,
  }),
  update_notification_rule: operation({
    description: 'Changes a notification rule (fields given are replaced; the whole rule is checked again).',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ rule_id: RecordId, ...Type.Partial(Type.Object(RuleFields)).properties }, { additionalProperties: false }),
    output: RuleView,
    http: { method: 'PUT', path: '/order-notification-rules/:rule_id' },
    handler: updateRule,
  }),
  delete_notification_rule: operation({
    description: 'Deletes a notification rule; its send log stays.',
    permission: 'orders.manage',
    ai_tool: false,
    input: RuleInput,
    output: Deleted(Type.String()),
    http: { method: 'DELETE', path: '/order-notification-rules/:rule_id' },
    handler: deleteRule,
  }),
  test_notification_rule: operation({
    description:
      "Renders the rule for an order (order_id) or sample values and sends it to `to`/`user_id` or the rule's recipient; dry_run only renders. Answers what was sent.",
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        rule_id: RecordId,
        order_id: Type.Optional(RecordId),
        sample: Type.Optional(
          Type.Object(
            {
              order_number: Type.Optional(Type.String({ maxLength: 500 })),
              customer_name: Type.Optional(Type.String({ maxLength: 500 })),
              total: Type.Optional(Type.String({ maxLength: 500 })),
              status: Type.Optional(Type.String({ maxLength: 500 })),
              tracking_url: Type.Optional(Type.String({ maxLength: 500 })),
              return_number: Type.Optional(Type.String({ maxLength: 500 })),
            },
            { additionalProperties: false },
          ),
        ),
        to: Type.Optional(Type.String({ minLength: 3, maxLength: 254, description: 'phone number or email address for this test' })),
        user_id: Type.Optional(Type.Integer({ minimum: 1, description: 'in_app: the user to notify' })),
        dry_run: Type.Optional(Type.Boolean({ default: false })),
      },
      { additionalProperties: false },
    ),
    output: RuleTest,
    http: { method: 'POST', path: '/order-notification-rules/:rule_id/test' },
    handler: testRule,
  }),
  list_notification_sends: operation({
    description:
      "Send log of a rule, newest first: event, order, channel, recipient, status (sending, retrying, sent, failed, skipped), attempts, next_attempt_at, error (the last attempt's), provider message id.",
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        rule_id: RecordId,
        status: Type.Optional(Type.StringEnum(['sending', 'retrying', 'sent', 'failed', 'skipped'])),
        order_id: Type.Optional(Uuid),
        ...LogPageProps,
      },
      { additionalProperties: false },
    ),
    output: CountedList(row('NotificationSend')),
    http: { method: 'GET', path: '/order-notification-rules/:rule_id/sends' },
    handler: listSends,
  }),
  retry_notification_sends: operation({
    description:
      'Sends again every notification whose retry is due (transient failures: 1, 5, 15 minutes; run every minute by the schedule notification_retries).',
    permission: 'orders.manage',
    ai_tool: false,
    input: ScheduleTrigger,
    output: Attempted,
    http: { method: 'POST', path: '/order-notification-rules/retry-due' },
    handler: retryDueSends,
  }),
};
