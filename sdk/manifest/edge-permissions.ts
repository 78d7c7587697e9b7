/**
 * An operation reachable from an edge always has a permission (DESIGN.md, wave 3, "Ownership is
 * platform-wide"). The edges a manifest alone decides: an authenticated http route that names no
 * permission of its own, a GraphQL field derived from api.provides (spec 1, GraphQL rules 6-7) and
 * a workflow node (spec 2, Node registry; the engine checks the node's permission for the workflow's
 * owner). An AI tool always has one: spec 2's Tool discovery rule 2 infers it from the tool's name and
 * the agent checks it on every call. An operation may go without one on an edge only when
 * `open_to_members` says why every member may call it. A schedule's operation that names no
 * permission runs with no user and only from the platform's scheduler (core/kernel/bus/bus.ts), so it is on
 * no edge at all, open_to_members or not. Fields bound in schema or
 * provider files are checked by the gateway when it binds them (core/services/graphql/field-resolvers.ts).
 */
import { childPointer, type ManifestIssue } from './issues';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);

/** Where each provided operation is reachable from by a member without a permission of the edge's own, by operation name. */
export function operationEdges(doc: unknown): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  const add = (op: unknown, edge: string) => {
    if (typeof op !== 'string') return;
    const found = edges.get(op) ?? [];
    if (!found.includes(edge)) edges.set(op, [...found, edge]);
  };
  // A public route (a gateway's callback) runs with no user and authenticates its caller itself.
  for (const r of list(at(doc, 'http', 'routes'))) if (at(r, 'public') !== true && at(r, 'permission') === undefined) add(at(r, 'operation'), 'an authenticated http route');
  const derives = at(doc, 'graphql', 'schema') === undefined && at(doc, 'graphql', 'auto_resolve') !== false;
  for (const op of list(at(doc, 'api', 'provides'))) {
    const name = at(op, 'name');
    if (derives && at(op, 'graphql_expose') !== false) add(name, 'a GraphQL field');
  }
  for (const node of list(at(doc, 'workflow', 'nodes'))) add(at(node, 'operation'), 'a workflow node');
  return edges;
}

export function edgePermissionIssues(doc: unknown): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const edges = operationEdges(doc);
  const scheduled = new Set(list(at(doc, 'schedules')).map((s) => at(s, 'operation')));
  list(at(doc, 'api', 'provides')).forEach((op, i) => {
    const name = at(op, 'name');
    if (typeof name !== 'string') return;
    const p = childPointer('/api/provides', i);
    const reached = edges.get(name) ?? [];
    const hasPermission = at(op, 'permission') !== undefined;
    const open = at(op, 'open_to_members') !== undefined;
    if (hasPermission && open) issues.push({ pointer: `${p}/open_to_members`, message: `"${name}" names a permission, so it is not open to every member: drop open_to_members` });
    if (scheduled.has(name) && !hasPermission) {
      const routed = [...list(at(doc, 'http', 'routes')), ...list(at(doc, 'http', 'public', 'routes'))].some((r) => at(r, 'operation') === name);
      const also = [...reached.filter((e) => e !== 'an authenticated http route'), ...(routed ? ['an http route'] : []), ...(at(op, 'ai_tool') !== false ? ['an AI tool'] : [])];
      if (also.length) issues.push({ pointer: p, message: `"${name}" runs from schedules, with no user and no permission, and must not also be reachable from ${also.join(' or ')}: set graphql_expose and ai_tool to false and give it no route or node, or name the permission a member needs to run it too` });
      return;
    }
    if (reached.length && !hasPermission && !open) {
      issues.push({
        pointer: `${p}/permission`,
        message: `"${name}" is reachable from ${reached.join(' and ')} but names no permission, so any member could call it: name one, take internal work off those edges (graphql_expose: false, no route or node), or say in open_to_members why every member may`,
      });
    }
  });
  return issues;
}
