/**
 * A stored workflow back in its create/update shape: the export (spec 2, Workflow export: name,
 * description, trigger_type, nodes, connections, exported_at, version "1.0"; we add trigger_config,
 * settings and tags so an import round-trips, and `workflow_version`, the version exported), and the
 * current values a partial PUT or a restore starts from (with node ids, which an export leaves out).
 */
import type { Graph } from './workflow';
import type { WorkflowInput } from './workflow-input';

export const EXPORT_VERSION = '1.0';

export function inputOf(g: Graph): WorkflowInput {
  const index = new Map(g.nodes.map((n, i) => [n.id, i]));
  return {
    name: g.workflow.name, description: g.workflow.description, status: g.workflow.status, trigger_type: g.workflow.trigger_type,
    trigger_config: g.workflow.trigger_config, settings: g.workflow.settings, tags: g.workflow.tags,
    nodes: g.nodes.map((n) => ({
      id: n.id, node_type: n.node_type, node_category: n.node_category, label: n.label, config: n.config, position: n.position,
      retry_count: n.retry_count, retry_delay_seconds: n.retry_delay_seconds, timeout_seconds: n.timeout_seconds,
    })),
    connections: g.connections.map((c) => ({
      source_node_index: index.get(c.source_node_id)!, target_node_index: index.get(c.target_node_id)!,
      source_handle: c.source_handle, target_handle: c.target_handle, condition_path: c.condition_path,
    })),
  };
}

export function exportOf(g: Graph, now: Date) {
  const { status: _status, nodes, ...rest } = inputOf(g);
  return { ...rest, nodes: nodes.map(({ id: _id, ...n }) => n), exported_at: now.toISOString(), version: EXPORT_VERSION, workflow_version: g.workflow.version };
}
