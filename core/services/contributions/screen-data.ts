/**
 * GET /mobile/screens/{screenId}/data/{sectionId} (spec 1): a section's data, from the screen
 * provider's `data` operation (input {section_id, params, context}) or else the section's
 * `data_source` operation, both called as the requesting user. Query: page (from 1), per_page (1-50,
 * default 20; spec 1 Limits: max 50), search, status, sort, and any module-specific key (e.g. `id` of
 * a detail screen), all in `params`.
 *
 * A list answers {data: [items], meta: {current_page, per_page, total, last_page, has_more}}; the core
 * cuts the page at per_page whatever the module returns. Anything else answers {data: <object>}. The
 * `data` operation returns an array or {items, total?}; a data_source names `items_path` and
 * `total_path` inside its operation's result.
 */
import type { ScreenProvider } from '../../../sdk/manifest';
import { ValidationError, type FieldErrors } from '../../kernel/errors';
import { catalogErrors } from './errors';
import type { LoadedModule } from '../../kernel/modules/loaded-module';
import { pathValue, resolvePlaceholders } from './placeholders';
import { findSection, type DataSource, type ScreenDefinition } from './screen-definition';
import { assertScreenMayCall } from './screen-definitions';
import type { UserCall } from './user-calls';

export const SECTION_PAGE_MAX = 50;
export const SECTION_PAGE_DEFAULT = 20;

export interface SectionParams extends Record<string, unknown> {
  page: number;
  per_page: number;
}

/** The query as section params, or 422 naming each bad field. */
export function sectionParams(query: Record<string, unknown>): SectionParams {
  const errors: FieldErrors = {};
  const params: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (typeof value !== 'string') errors[key] = [`The ${key.replace(/_/g, ' ')} field must be a single value.`];
    else if (value.length > 200) errors[key] = [`The ${key.replace(/_/g, ' ')} may not be greater than 200 characters.`];
    else params[key] = value;
  }
  const int = (key: string, label: string, max: number, fallback: number): number => {
    const raw = params[key];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(String(raw)) || n < 1) errors[key] = [`The ${label} must be an integer of at least 1.`];
    else if (n > max) errors[key] = [`The ${label} may not be greater than ${max}.`];
    return n;
  };
  const page = int('page', 'page', 1_000_000, 1);
  const perPage = int('per_page', 'per page', SECTION_PAGE_MAX, SECTION_PAGE_DEFAULT);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return { ...params, page, per_page: perPage };
}

/**
 * The section's answer. A list the source paged itself (a provider, or a section with `pagination`,
 * asked for `page`/`per_page`) is cut to one page; a list it answered whole is paged here, so `page`
 * works and nothing past the first page is lost.
 */
function answer(result: unknown, params: SectionParams, pagedBySource: boolean, itemsPath?: string, totalPath?: string): { data: unknown; meta?: Record<string, unknown> } {
  const items = itemsPath ? pathValue(result, itemsPath) : result;
  const total = totalPath ? pathValue(result, totalPath) : undefined;
  if (!Array.isArray(items)) return { data: items ?? null };
  const knownTotal = typeof total === 'number' && Number.isFinite(total) ? total : pagedBySource ? null : items.length;
  const start = pagedBySource ? 0 : (params.page - 1) * params.per_page;
  const page = items.slice(start, start + params.per_page);
  return {
    data: page,
    meta: {
      current_page: params.page,
      per_page: params.per_page,
      total: knownTotal,
      last_page: knownTotal === null ? null : Math.max(1, Math.ceil(knownTotal / params.per_page)),
      has_more: knownTotal === null ? items.length > params.per_page : params.page * params.per_page < knownTotal,
    },
  };
}

export async function sectionData(args: {
  definition: ScreenDefinition;
  sectionId: string;
  provider: ScreenProvider | undefined;
  mod: LoadedModule;
  params: SectionParams;
  tenant: { id: string; ring: string };
  call: UserCall;
}): Promise<{ data: unknown; meta?: Record<string, unknown> }> {
  const { definition, sectionId, provider, mod, params, call } = args;
  const section = findSection(definition.sections, sectionId);
  if (!section) throw catalogErrors.sectionNotFound(definition.id, sectionId);
  if (provider?.data) {
    const context = { screen_id: definition.id, tenant_id: args.tenant.id, ring: args.tenant.ring };
    const result = await call(provider.data, { section_id: sectionId, params, context });
    const paged = result !== null && typeof result === 'object' && Array.isArray((result as { items?: unknown }).items);
    return paged ? answer(result, params, true, 'items', 'total') : answer(result, params, true);
  }
  const source = section.data_source as DataSource | undefined;
  if (!source) throw catalogErrors.sectionHasNoData(definition.id, sectionId);
  assertScreenMayCall(mod, definition.id, source.operation);
  const input = resolvePlaceholders(source.params ?? {}, params) as Record<string, unknown>;
  // Only a paginated section's operation is asked for a page: others may not accept the keys.
  if (section.pagination) Object.assign(input, { page: params.page, per_page: params.per_page });
  return answer(await call(source.operation, input, { coerce: true }), params, Boolean(section.pagination), source.items_path, source.total_path);
}
