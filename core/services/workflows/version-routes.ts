/**
 * The version endpoints (README, Versions; spec 2 is silent, so these are additions):
 *   GET  /workflows/{id}/versions                     newest first, paged like the other lists + meta
 *   GET  /workflows/{id}/versions/{version}           that version's graph, in GET /workflows/{id}'s shapes
 *   POST /workflows/{id}/versions/{version}/restore   a new version with that one's content; answers like PUT
 * A restore is a save: the restorer becomes the owner and must hold the nodes' permissions, and a
 * workflow left active must pass activation's checks (workflows.ts).
 */
import type { Request, Router } from 'express';
import { currentContext } from '../../kernel/context';
import { workflowErrors } from './errors';
import type { Actor } from './node-permissions';
import { failIf, meta, paging, type Guards } from './route-support';
import { toConnection, toNode, toWorkflow, type Graph } from './workflow';
import { inputOf } from './workflow-export';
import { parseWorkflowInput } from './workflow-input';
import { graphOfVersion, toVersionSummary, type VersionRow } from './workflow-versions';
import type { Workflows } from './workflows';

const tenantId = () => currentContext()!.tenant!.id;
export function registerVersionRoutes(api: Router, g: Guards, w: Workflows, load: (req: Request) => Promise<Graph>, actor: () => Actor): void {
  const loadVersion = async (req: Request): Promise<{ graph: Graph; version: VersionRow }> => {
    const graph = await load(req);
    const n = Number(req.params.version);
    const version = Number.isInteger(n) && n >= 1 && n <= 2 ** 31 - 1 ? await w.store.version(tenantId(), graph.workflow.id, n) : undefined;
    if (!version) throw workflowErrors.versionNotFound();
    return { graph, version };
  };

  api.get('/workflows/:id/versions', ...g.view, async (req, res) => {
    const graph = await load(req);
    const errors: Record<string, string[]> = {};
    const p = paging(req, errors);
    failIf(errors);
    const { rows, total } = await w.store.versions(tenantId(), graph.workflow.id, p);
    res.json({ success: true, data: rows.map(toVersionSummary), meta: meta(p, total) });
  });

  api.get('/workflows/:id/versions/:version', ...g.view, async (req, res) => {
    const { graph, version } = await loadVersion(req);
    const at = graphOfVersion(graph.workflow, version);
    const { name, description, trigger_type, trigger_config, settings, tags } = at.workflow;
    const { version: n, created_at, author_id, summary } = toVersionSummary(version);
    res.json({
      success: true,
      data: { version: n, created_at, author_id, summary, workflow: { name, description, trigger_type, trigger_config, settings, tags, nodes: at.nodes.map(toNode), connections: at.connections.map(toConnection) } },
    });
  });

  api.post('/workflows/:id/versions/:version/restore', ...g.manage, async (req, res) => {
    const { graph, version } = await loadVersion(req);
    // Checked again against today's node registry: a node type uninstalled since is the 422 a PUT would get.
    const input = parseWorkflowInput(inputOf(graphOfVersion(graph.workflow, version)), await w.catalogFor(tenantId()));
    const saved = await w.update(tenantId(), graph, input, actor(), version.version);
    if (!saved) throw workflowErrors.versionNotFound();
    res.json({ success: true, message: 'Workflow restored', data: toWorkflow(saved) });
  });
}
