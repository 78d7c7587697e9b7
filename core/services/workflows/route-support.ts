/**
 * What the workflow and execution routes share (spec 2, Endpoints; Errors; Limits): the guard chain
 * (workflows error shape, authentication, `workflows` installed, permission, rate limit with the
 * X-RateLimit-* headers, per user), and pagination.
 */
import type { Request, RequestHandler } from 'express';
import { requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import { rateLimit, type RateLimiter, type RateLimitPolicy } from '../../kernel/drivers';
import { ValidationError } from '../../kernel/errors';
import { workflowErrors } from './errors';
import { useErrorShape } from '../../kernel/http/error-handler';
import type { ModuleHost } from '../../kernel/modules/module-host';

/** The module that brings the built-in nodes; a tenant gets the engine's routes once it installed it. */
export const WORKFLOWS_MODULE = 'workflows';

export const PERMISSIONS = { view: 'workflows.view', manage: 'workflows.manage', execute: 'workflows.execute' } as const;

export interface Guards {
  view: RequestHandler[];
  manage: RequestHandler[];
  execute: RequestHandler[];
  /** Manage-or-execute actions that start runs count against the execute limit (30/min). */
  run: RequestHandler[];
}

export function guards(deps: { authenticated: RequestHandler; modules: ModuleHost; rateLimiter: RateLimiter; standard: RateLimitPolicy; execute: RateLimitPolicy }): Guards {
  const perUser = () => {
    const ctx = currentContext()!;
    return `${ctx.tenant!.id}:${ctx.user!.id}`;
  };
  // Shared with the node registry's limiter (same name): one budget for the standard endpoints.
  const standard = rateLimit(deps.rateLimiter, { name: 'workflows', ...deps.standard, key: perUser });
  const execute = rateLimit(deps.rateLimiter, { name: 'workflows-execute', ...deps.execute, key: perUser });
  const installed: RequestHandler = (_req, _res, next) => {
    const tenant = currentContext()!.tenant!;
    deps.modules
      .modulesFor(tenant.id)
      .then((mods) => next(mods.byAlias.has(WORKFLOWS_MODULE) ? undefined : workflowErrors.notInstalled()))
      .catch(next);
  };
  const base = [useErrorShape('workflows'), deps.authenticated, installed];
  return {
    view: [...base, requirePermission(PERMISSIONS.view), standard],
    manage: [...base, requirePermission(PERMISSIONS.manage), standard],
    execute: [...base, requirePermission(PERMISSIONS.execute), standard],
    run: [...base, requirePermission(PERMISSIONS.execute), execute],
  };
}

export interface Paging {
  page: number;
  perPage: number;
}

const queryInt = (req: Request, key: string, fallback: number, min: number, max: number, errors: Record<string, string[]>) => {
  const raw = req.query[key];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) errors[key] = [`The ${key} must be an integer from ${min} to ${max}.`];
  return n;
};

/** page and per_page (spec 2: per_page default 15). */
export function paging(req: Request, errors: Record<string, string[]>): Paging {
  return { page: queryInt(req, 'page', 1, 1, 1_000_000, errors), perPage: queryInt(req, 'per_page', 15, 1, 100, errors) };
}

export const meta = (p: Paging, total: number) => ({ current_page: p.page, last_page: Math.max(1, Math.ceil(total / p.perPage)), per_page: p.perPage, total });

export const queryText = (req: Request, key: string): string | undefined => (typeof req.query[key] === 'string' && req.query[key] !== '' ? (req.query[key] as string) : undefined);

export function failIf(errors: Record<string, string[]>): void {
  if (Object.keys(errors).length) throw new ValidationError(errors, 'Validation failed');
}

export const { workflowNotFound, executionNotFound, invalid } = workflowErrors;
