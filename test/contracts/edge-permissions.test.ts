/**
 * Every first-party operation, the modules' under modules/ and the platform's core ones, with the
 * edges that reach it: an operation reachable from an edge always has a permission, unless its
 * manifest says in open_to_members why every member may call it (DESIGN.md, wave 3). The manifest
 * rule (sdk/manifest/edge-permissions.ts) sees one manifest; this sees them all together, so it also
 * covers a GraphQL field a schema file binds (to a module's or a core operation) and a workflow node
 * that runs another module's operation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { validateManifest, type Manifest, type Operation } from '../../sdk/manifest';
import { operationEdges } from '../../sdk/manifest/edge-permissions';
import { parseFieldBindings } from '../../core/services/graphql/field-bindings';
import type { CoreOperation } from '../../core/kernel/bus/types';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const MODULES = path.resolve(__dirname, '../../modules');
const manifests = readdirSync(MODULES).map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(MODULES, dir, 'module.json'), 'utf8')) as Manifest }));

interface Listed {
  operation: string;
  owner: string;
  permission?: string;
  open?: string;
  edges: string[];
}

/** Every operation, first-party and core, with the edges that reach it without a permission of the edge's own. */
function listOperations(core: readonly CoreOperation[]): Map<string, Listed> {
  const all = new Map<string, Listed>();
  for (const op of core) all.set(op.name, { operation: op.name, owner: 'core', permission: op.permission, edges: [] });
  for (const { dir, manifest } of manifests) {
    const edges = operationEdges(manifest);
    for (const op of manifest.api?.provides ?? []) all.set(op.name, { operation: op.name, owner: dir, permission: op.permission, open: (op as Operation).open_to_members, edges: [...(edges.get(op.name) ?? [])] });
  }
  const reach = (operation: string, edge: string) => all.get(operation)?.edges.push(edge);
  for (const { dir, manifest } of manifests) {
    // Nodes naming an operation of another module or of the core; the module's own are in operationEdges.
    for (const node of manifest.workflow?.nodes ?? []) if (node.operation && !node.operation.startsWith(`${manifest.name}.`)) reach(node.operation, `a workflow node of ${dir}`);
    const files = [
      ...(manifest.graphql?.schema && manifest.graphql.resolvers ? [manifest.graphql.resolvers] : []),
      ...(manifest.graphql?.providers ?? []).map((p) => p.resolvers),
    ];
    for (const file of files) {
      for (const [field, binding] of parseFieldBindings(readFileSync(path.join(MODULES, dir, file), 'utf8'), file)) {
        if (binding.operation && !binding.permission) reach(binding.operation, `GraphQL field ${field} of ${dir}`);
      }
    }
  }
  return all;
}

describe('DESIGN wave 3: every first-party operation reachable from an edge has a permission', () => {
  let tp: TestPlatform;
  let listed: Map<string, Listed>;

  beforeAll(async () => {
    tp = await startTestPlatform();
    listed = listOperations(tp.platform.kernel.bus.coreOperations());
  }, 120_000);
  afterAll(() => tp?.close());

  it('lists the operations of every module under modules/ and of the core', () => {
    expect(manifests.map((m) => m.dir)).toEqual(expect.arrayContaining(['workflows', 'workflows-code', 'orders', 'live-chat', 'ai']));
    expect([...listed.values()].filter((l) => l.owner === 'core').length).toBeGreaterThan(20);
    for (const name of ['workflows.send_email', 'workflows.send_notification', 'workflows.fire_schedules', 'workflows_code.evaluate', 'workflow_engine.fire_schedules', 'mail.send', 'notifications.send']) {
      expect(listed.has(name)).toBe(true);
    }
  });

  it('no operation reachable from an edge goes without a permission, unless open_to_members says why', () => {
    const unguarded = [...listed.values()].filter((l) => l.edges.length > 0 && !l.permission && !l.open).map((l) => `${l.operation} (${l.owner}): ${l.edges.join(', ')}`);
    expect(unguarded).toEqual([]);
  });

  it('every first-party manifest passes the rule where it is enforced: build, publish and install', () => {
    const refused = manifests.map(({ dir, manifest }) => ({ dir, result: validateManifest(manifest) })).filter((r) => !r.result.ok);
    expect(refused.map((r) => r.dir)).toEqual([]);
  });
});
