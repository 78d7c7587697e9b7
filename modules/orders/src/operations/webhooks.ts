/** orders operations: outbound webhook endpoints and their deliveries. */
import { operation, Type } from '../../../../sdk';
import { Attempted, CountedList, DataList, Deleted, WebhookView, row } from '../outputs';
import { LogPageProps, NoInput, recordInput, RecordId, ScheduleTrigger } from '../schemas';
import { createWebhook, deleteWebhook, deliverDue, getWebhook, listDeliveries, listWebhooks, updateWebhook } from '../webhooks';

/** An endpoint as registered; an update may give any of these. */
const WebhookFields = {
  url: Type.String({ minLength: 8, maxLength: 2000 }),
  secret: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'HMAC-SHA256 key for X-Webhook-Signature; any non-empty string (spec 3), 32 or more random characters recommended',
  }),
  events: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 20 }),
  is_active: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String({ maxLength: 500 })),
};
const WebhookInput = recordInput('webhook_id', RecordId);

export const webhookOperations = {
  create_webhook: operation({
    description: 'Registers an outbound webhook endpoint {url, secret, events[], is_active}.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(WebhookFields, { additionalProperties: false }),
    output: WebhookView,
    http: { method: 'POST', path: '/order-webhooks' },
    handler: createWebhook,
  }),
  list_webhooks: operation({
    description: 'Outbound webhook endpoints (secrets shown as a hint only).',
    permission: 'orders.view',
    ai_tool: false,
    input: NoInput,
    output: DataList(WebhookView),
    http: { method: 'GET', path: '/order-webhooks' },
    handler: listWebhooks,
  }),
  get_webhook: operation({
    description: 'One webhook endpoint.',
    permission: 'orders.view',
    ai_tool: false,
    input: WebhookInput,
    output: WebhookView,
    http: { method: 'GET', path: '/order-webhooks/:webhook_id' },
    handler: getWebhook,
  }),
  update_webhook: operation({
    description: 'Changes a webhook endpoint; is_active=true re-enables one that was auto-disabled.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ webhook_id: RecordId, ...Type.Partial(Type.Object(WebhookFields)).properties }, { additionalProperties: false }),
    output: WebhookView,
    http: { method: 'PUT', path: '/order-webhooks/:webhook_id' },
    handler: updateWebhook,
  }),
  delete_webhook: operation({
    description: 'Deletes a webhook endpoint; its queued retries are cancelled.',
    permission: 'orders.manage',
    ai_tool: false,
    input: WebhookInput,
    output: Deleted(Type.String()),
    http: { method: 'DELETE', path: '/order-webhooks/:webhook_id' },
    handler: deleteWebhook,
  }),
  list_webhook_deliveries: operation({
    description: 'Delivery log of an endpoint, newest first: status, attempts, last response status and duration, every attempt.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object(
      {
        webhook_id: RecordId,
        status: Type.Optional(Type.StringEnum(['pending', 'retrying', 'delivered', 'failed', 'cancelled'])),
        ...LogPageProps,
      },
      { additionalProperties: false },
    ),
    output: CountedList(row('WebhookDelivery')),
    http: { method: 'GET', path: '/order-webhooks/:webhook_id/deliveries' },
    handler: listDeliveries,
  }),
  deliver_webhooks: operation({
    description: 'Attempts every webhook delivery whose retry is due (run every minute by the schedule webhook_retries).',
    permission: 'orders.manage',
    ai_tool: false,
    input: ScheduleTrigger,
    output: Attempted,
    http: { method: 'POST', path: '/order-webhooks/retry-due' },
    handler: deliverDue,
  }),
};
