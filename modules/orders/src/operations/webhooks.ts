/** orders operations: outbound webhook endpoints and their deliveries. */
import { operation, Type } from '../../../../sdk';
import { Attempted, Deleted, WebhookView, row } from '../outputs';
import { RecordId } from '../schemas';
import { createWebhook, deleteWebhook, deliverDue, getWebhook, listDeliveries, listWebhooks, updateWebhook } from '../webhooks';

export const webhookOperations = {
  create_webhook: operation({
    description: 'Registers an outbound webhook endpoint {url, secret, events[], is_active}.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        url: Type.String({ minLength: 8, maxLength: 2000 }),
        secret: Type.String({
          minLength: 1,
          maxLength: 500,
          description: 'HMAC-SHA256 key for X-Webhook-Signature; any non-empty string (spec 3), 32 or more random characters recommended',
        }),
        events: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 20 }),
        is_active: Type.Optional(Type.Boolean()),
        description: Type.Optional(Type.String({ maxLength: 500 })),
      },
      { additionalProperties: false },
    ),
    output: WebhookView,
    http: { method: 'POST', path: '/order-webhooks', permission: 'orders.manage' },
    handler: createWebhook,
  }),
  list_webhooks: operation({
    description: 'Outbound webhook endpoints (secrets shown as a hint only).',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(WebhookView) }),
    http: { method: 'GET', path: '/order-webhooks', permission: 'orders.view' },
    handler: listWebhooks,
  }),
  get_webhook: operation({
    description: 'One webhook endpoint.',
    permission: 'orders.view',
    ai_tool: false,
    input: Type.Object({ webhook_id: RecordId }, { additionalProperties: false }),
    output: WebhookView,
    http: { method: 'GET', path: '/order-webhooks/:webhook_id', permission: 'orders.view' },
    handler: getWebhook,
  }),
  update_webhook: operation({
    description: 'Changes a webhook endpoint; is_active=true re-enables one that was auto-disabled.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      {
        webhook_id: RecordId,
        url: Type.Optional(Type.String({ minLength: 8, maxLength: 2000 })),
        secret: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 500,
            description: 'HMAC-SHA256 key for X-Webhook-Signature; any non-empty string (spec 3), 32 or more random characters recommended',
          }),
        ),
        events: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: 20 })),
        is_active: Type.Optional(Type.Boolean()),
        description: Type.Optional(Type.String({ maxLength: 500 })),
      },
      { additionalProperties: false },
    ),
    output: WebhookView,
    http: { method: 'PUT', path: '/order-webhooks/:webhook_id', permission: 'orders.manage' },
    handler: updateWebhook,
  }),
  delete_webhook: operation({
    description: 'Deletes a webhook endpoint; its queued retries are cancelled.',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object({ webhook_id: RecordId }, { additionalProperties: false }),
    output: Deleted(Type.String()),
    http: { method: 'DELETE', path: '/order-webhooks/:webhook_id', permission: 'orders.manage' },
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
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
        offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: Type.Array(row('WebhookDelivery')), total: Type.Integer() }),
    http: { method: 'GET', path: '/order-webhooks/:webhook_id/deliveries', permission: 'orders.view' },
    handler: listDeliveries,
  }),
  deliver_webhooks: operation({
    description: 'Attempts every webhook delivery whose retry is due (run every minute by the schedule webhook_retries).',
    permission: 'orders.manage',
    ai_tool: false,
    input: Type.Object(
      { schedule: Type.Optional(Type.String()), scheduled_at: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
    output: Attempted,
    http: { method: 'POST', path: '/order-webhooks/retry-due', permission: 'orders.manage' },
    handler: deliverDue,
  }),
};
