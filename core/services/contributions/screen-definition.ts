/**
 * A screen definition as clients receive it (spec 1, Screen definition): what the module supplies,
 * checked and completed from the screen's registration. The registration is the authority for id
 * and version (the manifest MD5 is computed from it), so a definition cannot disagree with it.
 *
 * Beyond the spec (which leaves per-type section fields "not shown"), a static definition names
 * where data and server-side actions come from:
 *   section.data_source {operation, params?, items_path?, total_path?}  GET …/data/{sectionId}
 *   any action object {id, operation, params?}                            POST …/action/{actionId}
 * `params` hold `{{key}}` placeholders filled from the request (query, or body for actions).
 */
import { catalogErrors } from './errors';
import { isObject } from '../../kernel/is-object';
import type { ScreenEntry } from './screen-entries';

export const SECTION_TYPES = [
  'stats-row', 'list', 'grid', 'detail-fields', 'form', 'card', 'chart', 'timeline',
  'actions-bar', 'empty-state', 'banner', 'tabs', 'camera-scanner', 'image-gallery',
] as const;

type Obj = Record<string, unknown>;
export type Section = Obj & { id: string; type: string };

export interface ScreenDefinition {
  id: string;
  version: number;
  type: 'screen';
  title: string;
  layout: string;
  header: Obj;
  sections: Section[];
  pull_to_refresh: boolean;
  cache_ttl: number;
}

export interface DataSource {
  operation: string;
  params?: Obj;
  items_path?: string;
  total_path?: string;
}

function checkSections(list: unknown, at: string, seen: Set<string>, problems: string[]): void {
  if (!Array.isArray(list)) return void problems.push(`${at} must be an array`);
  list.forEach((s, i) => {
    const p = `${at}/${i}`;
    if (!isObject(s)) return void problems.push(`${p} must be an object`);
    if (typeof s.id !== 'string' || !s.id) problems.push(`${p}/id must be a non-empty string`);
    else if (seen.has(s.id)) problems.push(`${p}/id "${s.id}" is used twice`);
    else seen.add(s.id);
    // A type this core does not list passes: clients show a placeholder for that section alone (the
    // web console does), so a module using a newer type never blanks a whole screen on older clients.
    if (typeof s.type !== 'string' || !s.type) problems.push(`${p}/type must be a non-empty string (${SECTION_TYPES.join(', ')})`);
    if (s.data_source !== undefined && !(isObject(s.data_source) && typeof s.data_source.operation === 'string')) problems.push(`${p}/data_source must be {operation, params?}`);
    if (s.type === 'tabs' && Array.isArray(s.tabs)) s.tabs.forEach((tab, j) => checkSections(isObject(tab) ? tab.sections : undefined, `${p}/tabs/${j}/sections`, seen, problems));
  });
}

/** The definition completed from the registration, or a 502 naming every problem. */
export function normaliseDefinition(screen: ScreenEntry, raw: unknown, defaultTtl: number): ScreenDefinition {
  if (!isObject(raw)) throw catalogErrors.invalidDefinition(screen.id, ['the definition must be a JSON object']);
  const problems: string[] = [];
  if (raw.id !== undefined && raw.id !== screen.id) problems.push(`/id is "${String(raw.id)}", but the screen is registered as "${screen.id}"`);
  if (raw.header !== undefined && !isObject(raw.header)) problems.push('/header must be an object');
  checkSections(raw.sections, '/sections', new Set(), problems);
  if (problems.length) throw catalogErrors.invalidDefinition(screen.id, problems);
  const title = typeof raw.title === 'string' ? raw.title : screen.title;
  return {
    id: screen.id,
    version: screen.version,
    type: 'screen',
    title,
    layout: typeof raw.layout === 'string' ? raw.layout : screen.layout,
    header: isObject(raw.header) ? raw.header : { title, show_back: !screen.navigation, actions: [] },
    sections: raw.sections as Section[],
    pull_to_refresh: typeof raw.pull_to_refresh === 'boolean' ? raw.pull_to_refresh : true,
    cache_ttl: Number.isInteger(raw.cache_ttl) ? (raw.cache_ttl as number) : defaultTtl,
  };
}

/** A section by id, also inside tabs. */
export function findSection(sections: readonly unknown[], id: string): Section | undefined {
  for (const s of sections) {
    if (!isObject(s)) continue;
    if (s.id === id) return s as Section;
    if (s.type === 'tabs' && Array.isArray(s.tabs)) {
      for (const tab of s.tabs) {
        const found = isObject(tab) && Array.isArray(tab.sections) ? findSection(tab.sections, id) : undefined;
        if (found) return found;
      }
    }
  }
  return undefined;
}

/** The server-side action with this id anywhere in the definition (header, sections, items). */
export function findAction(node: unknown, id: string): { operation: string; params?: Obj } | undefined {
  if (Array.isArray(node)) {
    for (const child of node) {
      const found = findAction(child, id);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  if (node.id === id && typeof node.operation === 'string') return { operation: node.operation, params: isObject(node.params) ? node.params : undefined };
  for (const value of Object.values(node)) {
    const found = findAction(value, id);
    if (found) return found;
  }
  return undefined;
}
