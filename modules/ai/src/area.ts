/**
 * One area of the ai module (providers, speech, translation, agent, graph): what it adds to the
 * manifest. src/index.ts assembles the areas into one defineModule, so each area's files stay its own.
 */
import type { DeclaredOperation, EventHandler, Model, ModuleJob, Permission, Secret } from '../../../sdk';

export interface Area {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema: each operation keeps its own
  operations: Record<string, DeclaredOperation<any, any>>;
  models?: Record<string, Model>;
  /** Operations of other modules the area calls (api.consumes). */
  consumes?: string[];
  secrets?: Secret[];
  jobs?: Record<string, ModuleJob>;
  permissions?: Permission[];
  /** Other modules' events the area reacts to (events.subscribes). */
  subscribes?: Record<string, EventHandler>;
}

/** The areas merged; route order is area order (first match wins), so literal paths go first. */
export function mergeAreas(areas: Area[]) {
  const uniq = <T>(items: T[]) => [...new Set(items)];
  return {
    operations: Object.assign({}, ...areas.map((a) => a.operations)) as Area['operations'],
    models: Object.assign({}, ...areas.map((a) => a.models ?? {})) as Record<string, Model>,
    consumes: uniq(areas.flatMap((a) => a.consumes ?? [])),
    secrets: areas.flatMap((a) => a.secrets ?? []),
    jobs: Object.assign({}, ...areas.map((a) => a.jobs ?? {})) as Record<string, ModuleJob>,
    permissions: areas.flatMap((a) => a.permissions ?? []),
    subscribes: Object.assign({}, ...areas.map((a) => a.subscribes ?? {})) as Record<string, EventHandler>,
  };
}
