/** Outbound webhooks' delivery (core/services/webhooks/deliver.ts): the URL check and the signed POST, under the SSRF rule. */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

const Url = Type.String({ minLength: 1, maxLength: 2000 });

export const webhooksCheckUrl = coreContract({
  name: 'webhooks.check_url',
  description:
    "Whether an outbound webhook URL may be registered (http/https, not the platform's private network unless an admin allowed it). A host that does not resolve yet is allowed ({ok: true, resolved: false}): every delivery checks again.",
  input: Type.Object({ url: Url }, { additionalProperties: false }),
  output: Type.Object({
    ok: Type.Boolean(),
    resolved: Type.Optional(Type.Boolean({ description: 'false: the host does not resolve yet (allowed; each delivery checks again)' })),
    reason: Type.Optional(Type.String({ description: 'why the URL is refused' })),
  }),
  public: true,
});

export const webhooksDeliver = coreContract({
  name: 'webhooks.deliver',
  description:
    'POSTs a JSON body to a webhook URL, signed: X-Webhook-Signature (hex HMAC-SHA256 of the raw body under the secret), X-Webhook-Id, X-Webhook-Timestamp. Returns {ok, status, duration_ms, error?}; SSRF rule enforced.',
  input: Type.Object(
    {
      url: Url,
      secret: Type.String({ minLength: 1, maxLength: 1000 }),
      body: Type.String({ maxLength: 1_000_000 }),
      delivery_id: Type.String({ minLength: 1, maxLength: 100 }),
      timestamp: Type.String({ minLength: 1, maxLength: 40 }),
      event: Type.Optional(Type.String({ maxLength: 200 })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    ok: Type.Boolean({ description: 'a 2xx answer' }),
    status: Type.Nullable(Type.Integer({ description: 'null: no answer (refused, unreachable, timed out)' })),
    duration_ms: Type.Integer({ minimum: 0 }),
    response_body: Type.Optional(Type.String({ description: 'the first 2 KB of the answer' })),
    error: Type.Optional(Type.String()),
  }),
  public: true,
});
