/**
 * POST /api/webhooks/workflows/{token} (spec 2, Public webhook trigger): no authentication; the
 * token names the tenant (central lookup) and the workflow. Body {event, data}; the run's trigger
 * data is `data`. When the workflow's trigger_config.require_signature is true, X-Webhook-Signature
 * must be `sha256=<hex>` of HMAC-SHA256 over the raw body with the workflow's webhook secret,
 * compared in constant time; missing or wrong is 401 and nothing runs. Only active webhook
 * workflows fire. 120 requests per minute per token (spec 2, Limits), with the X-RateLimit-* headers;
 * an unknown token also spends the client address's miss budget, the one widget tokens spend
 * (PUBLIC_MISS_RATE_LIMIT), so webhook tokens cannot be found by trying either. With
 * trigger_config.respond "last_node" the call waits for the run's end (webhook-respond.ts,
 * run-waiters.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Router } from 'express';
import { rateLimit, type RateLimiter, type RateLimitPolicy } from '../../kernel/drivers';
import { ValidationError } from '../../kernel/errors';
import { workflowErrors } from './errors';
import { useErrorShape } from '../../kernel/http/error-handler';
import { isObject } from '../../kernel/is-object';
import { publicMissBudget } from '../../kernel/modules/public-miss-budget';
import { hashToken } from '../../kernel/modules/public-tokens';
import { triggerData } from './trigger-data';
import { sendRunResult, waitMs } from './webhook-respond';
import { workflowNotFound } from './route-support';
import type { Workflows } from './workflows';

/** Relative to /api, where the platform mounts public routes (core/kernel/http/app.ts). */
export const WEBHOOK_PATH = '/webhooks/workflows/:token';

export function signatureValid(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header?.startsWith('sha256=')) return false;
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function webhookRouter(w: Workflows, deps: { rateLimiter: RateLimiter; limit: RateLimitPolicy; missLimit: RateLimitPolicy }): Router {
  const router = express.Router();
  const limit = rateLimit(deps.rateLimiter, { name: 'workflow-webhook', ...deps.limit, key: (req) => hashToken(String(req.params.token)) });
  const spendMiss = publicMissBudget(deps.rateLimiter, deps.missLimit);
  router.post(WEBHOOK_PATH, useErrorShape('workflows'), limit, async (req, res) => {
    const token = String(req.params.token);
    const tenantId = await w.tokens.tenantOf(token);
    const graph = tenantId ? await w.store.byToken(tenantId, token) : undefined;
    if (!tenantId || !graph) {
      await spendMiss(req, res);
      throw workflowNotFound();
    }
    const { workflow } = graph;
    if (workflow.trigger_config.require_signature === true) {
      const raw = (req as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
      if (!signatureValid(workflow.webhook_secret, raw, req.get('x-webhook-signature'))) throw workflowErrors.badSignature();
    }
    if (workflow.status !== 'active' || workflow.trigger_type !== 'webhook') {
      throw workflowErrors.webhookInactive();
    }
    const body: unknown = req.body ?? {};
    if (!isObject(body)) throw new ValidationError({ body: ['The body must be a JSON object {event, data}.'] }, 'Validation failed');
    if (body.event !== undefined && typeof body.event !== 'string') throw new ValidationError({ event: ['The event must be a string.'] }, 'Validation failed');
    const data = triggerData(body.data);
    const wait = waitMs(workflow.trigger_config);
    if (wait === undefined) {
      const run = (await w.engine.execute(tenantId, graph, { type: 'webhook', data, triggeredBy: null }))!;
      return void res.json({ success: true, message: 'Workflow triggered', data: { execution_id: run.id } });
    }
    // Waiting for the run's end (webhook-respond.ts): the slot is taken before anything runs, so a flood is refused whole.
    const release = w.waiters.take(tenantId);
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    try {
      const run = (await w.engine.execute(tenantId, graph, { type: 'webhook', data, triggeredBy: null }))!;
      sendRunResult(res, run.id, await w.waiters.wait(tenantId, run.id, wait, gone.signal));
    } finally {
      release();
    }
  });
  return router;
}
