/**
 * The workflow node registry (spec 2, Node registry), per tenant from its ring's catalog:
 *   GET  /workflow-nodes                         {success, data: [entry]}
 *   GET  /workflow-nodes/grouped                 {success, data: [{category, label, icon, color, description, nodes}]}
 *   GET  /workflow-nodes/categories              {success, data: {category: {label, icon, color, description}}}
 *   GET  /workflow-nodes/{identifier}            {success, data: entry}; 404 "Node not found"
 *   POST /workflow-nodes/{identifier}/validate   {config: object} → {success, valid, errors: [string]}
 *   POST /workflow-nodes/can-connect             {source, target} → {success, can_connect, reason?}
 * Errors in the workflows shape {success: false, message, errors?} (spec 2, Errors): 401, 404, 422
 * "Validation failed" with {field: [message]}, 429. Authentication only: the spec names no permission
 * for workflow endpoints. Rate limit: WORKFLOW_RATE_LIMIT (default 60 requests per minute, spec 2
 * Limits) per user and tenant, shared by the standard workflow endpoints, with the X-RateLimit-* headers.
 */
import type { Request, RequestHandler, Response, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { rateLimit, type RateLimiter, type RateLimitPolicy } from '../../kernel/drivers';
import { ValidationError } from '../../kernel/errors';
import { catalogErrors } from './errors';
import { useErrorShape, useErrorShapeForPath } from '../../kernel/http/error-handler';
import { isObject } from '../../kernel/is-object';
import { canConnect } from './can-connect';
import type { Catalog } from './catalog';
import { validateNodeConfig } from './node-config';
import type { TenantCatalogs } from './tenant-catalogs';
import { CATEGORY_ENTRIES, groupNodes } from './workflow-nodes';

const failed = (errors: Record<string, string[]>) => new ValidationError(errors, 'Validation failed');

/** The JSON body as an object (absent: empty); anything else is 400 'Invalid request' (spec 2, Errors). */
export function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (!isObject(body)) throw catalogErrors.bodyNotObject();
  return body;
}

export function registerWorkflowNodeRoutes(
  api: Router,
  deps: { catalogs: TenantCatalogs; authenticated: RequestHandler; rateLimiter: RateLimiter; rateLimit: RateLimitPolicy },
): void {
  useErrorShapeForPath('/api/v1/workflow-nodes', 'workflows', true);
  const limit = rateLimit(deps.rateLimiter, {
    name: 'workflows',
    ...deps.rateLimit,
    key: () => {
      const ctx = currentContext()!;
      return `${ctx.tenant!.id}:${ctx.user!.id}`;
    },
  });
  const guard = [useErrorShape('workflows'), deps.authenticated, limit];

  const catalogOf = async (res: Response): Promise<Catalog> => {
    const tenant = currentContext()!.tenant!;
    const { catalog, ringKey } = await deps.catalogs.forTenant(tenant);
    res.set('X-Catalog-Key', ringKey);
    return catalog;
  };
  const entryOf = (catalog: Catalog, identifier: string) => {
    const entry = catalog.node(identifier);
    if (!entry) throw catalogErrors.nodeNotFound(identifier);
    return entry;
  };

  api.get('/workflow-nodes', ...guard, async (_req, res) => {
    res.json({ success: true, data: (await catalogOf(res)).nodes });
  });

  api.get('/workflow-nodes/grouped', ...guard, async (_req, res) => {
    res.json({ success: true, data: groupNodes((await catalogOf(res)).nodes) });
  });

  api.get('/workflow-nodes/categories', ...guard, (_req, res) => {
    res.json({ success: true, data: CATEGORY_ENTRIES });
  });

  api.post('/workflow-nodes/can-connect', ...guard, async (req, res) => {
    const body = bodyOf(req);
    const catalog = await catalogOf(res);
    const errors: Record<string, string[]> = {};
    const pick = (field: 'source' | 'target') => {
      const value = body[field];
      if (typeof value !== 'string' || !value) errors[field] = [`The ${field} field is required and must be a node identifier.`];
      else if (!catalog.node(value)) errors[field] = [`The ${field} "${value}" is not in this tenant's node registry.`];
      else return catalog.node(value)!;
      return undefined;
    };
    const source = pick('source');
    const target = pick('target');
    if (!source || !target) throw failed(errors);
    res.json({ success: true, ...canConnect(source, target) });
  });

  api.get('/workflow-nodes/:identifier', ...guard, async (req, res) => {
    res.json({ success: true, data: entryOf(await catalogOf(res), String(req.params.identifier)) });
  });

  api.post('/workflow-nodes/:identifier/validate', ...guard, async (req, res) => {
    const body = bodyOf(req);
    const entry = entryOf(await catalogOf(res), String(req.params.identifier));
    const config = body.config;
    if (config === null || typeof config !== 'object' || Array.isArray(config)) throw failed({ config: ['The config field is required and must be an object.'] });
    const errors = validateNodeConfig(entry, config as Record<string, unknown>);
    res.json({ success: true, valid: errors.length === 0, errors });
  });
}
