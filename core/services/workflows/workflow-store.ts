/**
 * SQL for workflows, their nodes and connections, executions and logs in a tenant database (spec 2,
 * Resources). A save replaces the graph in one transaction; executions move only by conditional
 * updates (`WHERE status = ...`), so two workers or a worker and an operator never both win.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { TenantDatabases } from '../../kernel/data/tenant-databases';
import { GroupCommit } from './group-commit';
import type { ConnectionRow, ExecutionRow, Graph, LogRow, NodeRow, RunContext, Scheduler, WorkflowRow } from './workflow';
import type { WorkflowInput } from './workflow-input';
import { connectionIds, contentOf, diffSummary, graphOfVersion, nodeIds, type VersionRow } from './workflow-versions';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);
const json = (v: unknown) => JSON.stringify(v ?? null);

export interface WorkflowFilter {
  status?: string;
  trigger_type?: string;
  search?: string;
  tag?: string;
  sort_by: string;
  sort_dir: 'asc' | 'desc';
  perPage: number;
  page: number;
  all: boolean;
}

export interface ExecutionFilter {
  workflow_id?: string;
  status?: string;
  trigger_type?: string;
  from?: string;
  to?: string;
  perPage: number;
  page: number;
}

/** The columns of ExecutionRow, for a prepared statement (whose result must not change when a column is added). */
const EXECUTION_COLUMNS = (['id', 'workflow_id', 'workflow_name', 'status', 'trigger_type', 'trigger_data', 'triggered_by', 'context', 'result', 'error_message', 'nodes_total',
  'nodes_executed', 'nodes_failed', 'started_at', 'completed_at', 'duration_ms', 'resume_at', 'pause_requested', 'scheduler', 'workflow_version', 'retry_of', 'retried_by',
  'chain', 'parent_execution_id', 'created_at'] satisfies (keyof ExecutionRow)[]).map((c) => `w.${c}`).join(', ');
/** A finished run's duration: from its start (or its creation, if it never started) to `at`. */
const DURATION_MS = (at: string, row = 'workflow_executions') => `GREATEST(0, (EXTRACT(EPOCH FROM (${at}::timestamptz - COALESCE(${row}.started_at, ${row}.created_at))) * 1000)::int)`;

/** Who saves: the owner the save makes, and the version's author. */
export type Author = { id: number; name: string };

/** Every node id a kept version of a workflow holds: a save may bring one back (a restore). */
const VERSION_NODE_IDS = "SELECT DISTINCT n->>'id' AS id FROM workflow_versions v, jsonb_array_elements(v.content->'nodes') n WHERE v.workflow_id = $1";

/** A fresh token for the webhook URL and a secret for its signature (spec 2, Public webhook trigger). */
export const newToken = () => randomBytes(24).toString('hex');
export const newSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

/** What starts an execution (createExecution). */
export interface NewExecutionInput {
  trigger_type: string;
  trigger_data: unknown;
  triggered_by: number | null;
  trigger_key?: string;
  queue: string[];
  chain?: readonly string[];
  parent_execution_id?: string;
}

/** A new execution as written, with its id and its workflow's figures. */
interface NewExecution extends NewExecutionInput {
  id: string;
  workflow_id: string;
  workflow_name: string;
  workflow_version: number;
  nodes_total: number;
}

/** A node's log row as a checkpoint writes it. */
export type NodeLog = Omit<LogRow, 'id' | 'execution_id'>;

/**
 * A checkpoint (spec 2, Execution): the node's log row and what changes in its run. Absent fields
 * keep their value; `start` moves a pending run to running, `complete` ends it. `folded` are the log
 * rows of the effect-free nodes run since the run's last checkpoint (folded-checkpoints.ts), written
 * before `log`; `at` is the nodes_executed the run was read at: a run that has moved since (another
 * worker's checkpoint) takes none of them.
 */
export interface Checkpoint {
  log: NodeLog;
  folded?: NodeLog[];
  at: number;
  context?: RunContext;
  scheduler?: Scheduler;
  resume_at?: Date | null;
  executed?: number;
  failed?: 1;
  start?: Date;
  complete?: { result: unknown; at: Date };
}

export class WorkflowStore {
  /** Graphs webhook calls read lately, by tenant and workflow, each with the version of its row (byToken). */
  private readonly savedGraphs = new LRUCache<string, { version: string; graph: Graph }>({ max: 1_000 });
  private readonly checkpoints = new GroupCommit<Checkpoint>((tenantId, batch) => this.writeCheckpoints(tenantId, batch));
  /** A tenant's new executions (a webhook burst) share INSERT statements as its checkpoints do. */
  private readonly inserts = new GroupCommit<NewExecution>((tenantId, batch) => this.insertExecutions(tenantId, batch));

  /** `versionsKeep`: versions kept per workflow besides those unfinished runs are pinned to (WORKFLOW_VERSIONS_KEEP). */
  constructor(
    private readonly tenantDbs: TenantDatabases,
    private readonly versionsKeep: number,
    /** How long a run's lease lasts unless renewed (README, Execution model: leases and the sweeper). */
    private readonly leaseMs = 60_000,
  ) {}

  with<T>(tenantId: string, fn: (db: Sequelize) => Promise<T>): Promise<T> {
    return this.tenantDbs.with(tenantId, fn);
  }

  private q<T extends object>(db: Sequelize, sql: string, bind: unknown[], transaction?: Transaction): Promise<T[]> {
    return db.query<T>(sql, { bind, type: QueryTypes.SELECT, transaction });
  }

  async create(tenantId: string, input: WorkflowInput, owner: Author, summary: string): Promise<Graph> {
    return this.with(tenantId, (db) =>
      db.transaction(async (t) => {
        const [w] = await this.q<WorkflowRow>(
          db,
          `INSERT INTO workflows (name, description, status, trigger_type, trigger_config, settings, tags, owner_id, webhook_token, webhook_secret)
           VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8, $9, $10) RETURNING *`,
          [input.name, input.description, input.status, input.trigger_type, json(input.trigger_config), json(input.settings), json(input.tags), owner.id, newToken(), newSecret()],
          t,
        );
        const graph = await this.writeGraph(db, w, input, nodeIds(input.nodes, [], new Set()), [], t);
        return this.addVersion(db, graph, { author: owner, summary }, t);
      }),
    );
  }

  /**
   * Saves the workflow and binds it to `owner`, who saved it (node-permissions.ts). Node ids stay
   * (workflow-versions.ts, nodeIds); a save that changes the graph, or one with `save.summary` (a
   * restore), is a new version.
   */
  async update(tenantId: string, id: string, input: WorkflowInput, owner: Author, save: { summary?: string; restoredFrom?: number } = {}): Promise<Graph | undefined> {
    if (!isUuid(id)) return undefined;
    return this.with(tenantId, (db) =>
      db.transaction(async (t) => {
        // The row lock orders concurrent saves: each diffs against the version the one before it made.
        const [locked] = await this.q<WorkflowRow>(db, 'SELECT * FROM workflows WHERE id = $1 FOR UPDATE', [id], t);
        if (!locked) return undefined;
        const [current] = await this.graphsOf(db, [locked], t);
        const known = new Set([...current.nodes.map((n) => n.id), ...(await this.q<{ id: string }>(db, VERSION_NODE_IDS, [id], t)).map((r) => r.id)]);
        const versionAt = async (n: number | undefined) => (n === undefined ? undefined : (await this.q<VersionRow>(db, 'SELECT * FROM workflow_versions WHERE workflow_id = $1 AND version = $2', [id, n], t))[0]);
        const previous = await versionAt(locked.version);
        // A restore brings its version's connections back with their ids too.
        const restored = (await versionAt(save.restoredFrom))?.content.connections ?? [];
        const [w] = await this.q<WorkflowRow>(
          db,
          `UPDATE workflows SET name = $2, description = $3, status = $4, trigger_type = $5, trigger_config = $6::jsonb, settings = $7::jsonb, tags = $8::jsonb, owner_id = $9, updated_at = now()
           WHERE id = $1 RETURNING *`,
          [id, input.name, input.description, input.status, input.trigger_type, json(input.trigger_config), json(input.settings), json(input.tags), owner.id],
          t,
        );
        const ids = nodeIds(input.nodes, current.nodes, known);
        await db.query('DELETE FROM workflow_connections WHERE workflow_id = $1', { bind: [id], transaction: t });
        await db.query('DELETE FROM workflow_nodes WHERE workflow_id = $1 AND NOT (id = ANY($2::uuid[]))', { bind: [id, ids], transaction: t });
        const graph = await this.writeGraph(db, w, input, ids, [...current.connections, ...restored.map((c) => ({ ...c, workflow_id: id }))], t);
        const summary = save.summary ?? diffSummary(previous?.content, contentOf(graph));
        return summary === undefined ? graph : this.addVersion(db, graph, { author: owner, summary, restoredFrom: save.restoredFrom }, t);
      }),
    );
  }

  /** Writes the nodes (upserted by id: a kept node keeps its row) and the connections of a save. */
  private async writeGraph(db: Sequelize, w: WorkflowRow, input: WorkflowInput, ids: string[], current: ConnectionRow[], t: Transaction): Promise<Graph> {
    const nodes = input.nodes.length
      ? await this.q<NodeRow>(
          db,
          `INSERT INTO workflow_nodes (id, workflow_id, position_index, node_type, node_category, label, config, position, is_entry_point, retry_count, retry_delay_seconds, timeout_seconds)
           SELECT (n.v->>'id')::uuid, $1, n.i - 1, n.v->>'node_type', n.v->>'node_category', n.v->>'label', n.v->'config', n.v->'position', n.v->>'node_category' = 'trigger',
                  (n.v->>'retry_count')::int, (n.v->>'retry_delay_seconds')::int, (n.v->>'timeout_seconds')::int
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS n(v, i) ORDER BY n.i
           ON CONFLICT (id) DO UPDATE SET position_index = EXCLUDED.position_index, node_type = EXCLUDED.node_type, node_category = EXCLUDED.node_category, label = EXCLUDED.label,
             config = EXCLUDED.config, position = EXCLUDED.position, is_entry_point = EXCLUDED.is_entry_point, retry_count = EXCLUDED.retry_count,
             retry_delay_seconds = EXCLUDED.retry_delay_seconds, timeout_seconds = EXCLUDED.timeout_seconds
           WHERE workflow_nodes.workflow_id = EXCLUDED.workflow_id RETURNING *`,
          [w.id, json(input.nodes.map((n, i) => ({ ...n, id: ids[i] })))],
          t,
        )
      : [];
    nodes.sort((a, b) => a.position_index - b.position_index);
    const edges = input.connections.map((c) => ({
      source_node_id: nodes[c.source_node_index].id, target_node_id: nodes[c.target_node_index].id, source_handle: c.source_handle, target_handle: c.target_handle, condition_path: c.condition_path,
    }));
    const edgeIds = connectionIds(edges, current);
    const connections = edges.length
      ? await this.q<ConnectionRow>(
          db,
          `INSERT INTO workflow_connections (id, workflow_id, source_node_id, target_node_id, source_handle, target_handle, condition_path)
           SELECT (e->>'id')::uuid, $1, (e->>'source_node_id')::uuid, (e->>'target_node_id')::uuid, e->>'source_handle', e->>'target_handle', e->>'condition_path'
           FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS x(e, i) ORDER BY i RETURNING *`,
          [w.id, json(edges.map((e, i) => ({ ...e, id: edgeIds[i] })))],
          t,
        )
      : [];
    return { workflow: w, nodes, connections };
  }

  /**
   * The save as the workflow's next version, and the versions past the retention dropped: all but the
   * newest `versionsKeep`, except those a run not finished yet is pinned to.
   */
  private async addVersion(db: Sequelize, g: Graph, v: { author: Author; summary: string; restoredFrom?: number }, t: Transaction): Promise<Graph> {
    const [w] = await this.q<WorkflowRow>(db, 'UPDATE workflows SET version = version + 1 WHERE id = $1 RETURNING *', [g.workflow.id], t);
    await this.q(
      db,
      'INSERT INTO workflow_versions (workflow_id, version, author_id, author_name, summary, restored_from, content) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb) RETURNING version',
      [w.id, w.version, v.author.id, v.author.name, v.summary, v.restoredFrom ?? null, json(contentOf(g))],
      t,
    );
    await db.query(
      `DELETE FROM workflow_versions v WHERE v.workflow_id = $1 AND v.version <= $2
         AND NOT EXISTS (SELECT 1 FROM workflow_executions e WHERE e.workflow_id = v.workflow_id AND e.workflow_version = v.version AND e.status IN ('pending', 'running', 'paused'))`,
      { bind: [w.id, w.version - this.versionsKeep], transaction: t },
    );
    return { ...g, workflow: w };
  }

  /** A workflow's versions, newest first, without their graphs. */
  async versions(tenantId: string, workflowId: string, p: { perPage: number; page: number }): Promise<{ rows: Omit<VersionRow, 'content'>[]; total: number }> {
    return this.with(tenantId, async (db) => {
      const [{ total }] = await this.q<{ total: number }>(db, 'SELECT count(*)::int AS total FROM workflow_versions WHERE workflow_id = $1', [workflowId]);
      const rows = await this.q<Omit<VersionRow, 'content'>>(
        db,
        'SELECT workflow_id, version, author_id, author_name, summary, restored_from, created_at FROM workflow_versions WHERE workflow_id = $1 ORDER BY version DESC LIMIT $2 OFFSET $3',
        [workflowId, p.perPage, (p.page - 1) * p.perPage],
      );
      return { rows, total };
    });
  }

  async version(tenantId: string, workflowId: string, version: number): Promise<VersionRow | undefined> {
    return (await this.tenantDbs.query<VersionRow>(tenantId, 'SELECT * FROM workflow_versions WHERE workflow_id = $1 AND version = $2', [workflowId, version]))[0];
  }

  /**
   * The graph a run pinned to `version` walks: the current rows when that is the current version (or
   * the run is older than versions), else the stored version; undefined when the workflow was deleted
   * or that version is no longer kept.
   */
  async graphAt(tenantId: string, workflowId: string, version: number | null): Promise<Graph | undefined> {
    const g = await this.graph(tenantId, workflowId);
    if (!g || version === null || version === g.workflow.version) return g;
    const v = await this.version(tenantId, workflowId, version);
    return v && graphOfVersion(g.workflow, v);
  }

  async graph(tenantId: string, id: string): Promise<Graph | undefined> {
    if (!isUuid(id)) return undefined;
    return this.with(tenantId, async (db) => {
      const [w] = await this.q<WorkflowRow>(db, 'SELECT * FROM workflows WHERE id = $1', [id]);
      return w ? (await this.graphsOf(db, [w]))[0] : undefined;
    });
  }

  /**
   * The workflow a webhook token names, read on every call (its status and secret as they are now),
   * through the pool's client; its nodes and connections are read again only when the row's
   * `updated_at` moved (to the microsecond), which every save and status change does and a run's
   * counters do not: a high-volume webhook would otherwise read them on every call.
   */
  async byToken(tenantId: string, token: string): Promise<Graph | undefined> {
    const [row] = await this.tenantDbs.query<WorkflowRow & { row_version: string }>(tenantId, 'SELECT *, updated_at::text AS row_version FROM workflows WHERE webhook_token = $1', [token]);
    if (!row) return undefined;
    const { row_version: version, ...w } = row;
    const key = `${tenantId}:${w.id}`;
    const known = this.savedGraphs.get(key);
    if (known?.version === version) return { ...known.graph, workflow: w };
    const graph = (await this.with(tenantId, (db) => this.graphsOf(db, [w])))[0];
    this.savedGraphs.set(key, { version, graph });
    return graph;
  }

  /** Active workflows started by `trigger_type` (event and schedule triggers). */
  async activeByTrigger(tenantId: string, triggerType: string): Promise<Graph[]> {
    return this.with(tenantId, async (db) => this.graphsOf(db, await this.q<WorkflowRow>(db, "SELECT * FROM workflows WHERE status = 'active' AND trigger_type = $1", [triggerType])));
  }

  /** The events the tenant's active event-triggered workflows follow. */
  async activeEventNames(tenantId: string): Promise<Set<string>> {
    return this.with(tenantId, async (db) => {
      const rows = await this.q<{ event: string }>(db, "SELECT DISTINCT trigger_config->>'event' AS event FROM workflows WHERE status = 'active' AND trigger_type = 'event' AND trigger_config ? 'event'", []);
      return new Set(rows.map((r) => r.event));
    });
  }

  private async graphsOf(db: Sequelize, rows: WorkflowRow[], t?: Transaction): Promise<Graph[]> {
    if (!rows.length) return [];
    const ids = rows.map((w) => w.id);
    const nodes = await this.q<NodeRow>(db, 'SELECT * FROM workflow_nodes WHERE workflow_id = ANY($1::uuid[]) ORDER BY position_index', [ids], t);
    const connections = await this.q<ConnectionRow>(
      db,
      `SELECT c.* FROM workflow_connections c JOIN workflow_nodes s ON s.id = c.source_node_id JOIN workflow_nodes t ON t.id = c.target_node_id
       WHERE c.workflow_id = ANY($1::uuid[]) ORDER BY s.position_index, t.position_index, c.id`,
      [ids],
      t,
    );
    return rows.map((workflow) => ({ workflow, nodes: nodes.filter((n) => n.workflow_id === workflow.id), connections: connections.filter((c) => c.workflow_id === workflow.id) }));
  }

  async list(tenantId: string, f: WorkflowFilter): Promise<{ graphs: Graph[]; total: number }> {
    return this.with(tenantId, async (db) => {
      const where = `($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR trigger_type = $2)
        AND ($3::text IS NULL OR name ILIKE '%' || $3 || '%' OR description ILIKE '%' || $3 || '%') AND ($4::text IS NULL OR tags ? $4)`;
      const bind = [f.status ?? null, f.trigger_type ?? null, f.search ?? null, f.tag ?? null];
      const [{ total }] = await this.q<{ total: number }>(db, `SELECT count(*)::int AS total FROM workflows WHERE ${where}`, bind);
      // sort_by is one of a fixed list (checked by the route), never the caller's text.
      const page = f.all ? '' : `LIMIT ${f.perPage} OFFSET ${(f.page - 1) * f.perPage}`;
      const rows = await this.q<WorkflowRow>(db, `SELECT * FROM workflows WHERE ${where} ORDER BY ${f.sort_by} ${f.sort_dir}, id ${f.sort_dir} ${page}`, bind);
      return { graphs: await this.graphsOf(db, rows), total };
    });
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return this.with(tenantId, async (db) => (await this.q(db, 'DELETE FROM workflows WHERE id = $1 RETURNING id', [id])).length > 0);
  }

  /** An operator's status change; it clears the platform's reason for a pause (pauseActive). */
  async setStatus(tenantId: string, id: string, status: string): Promise<void> {
    await this.with(tenantId, (db) => db.query('UPDATE workflows SET status = $2, paused_reason = NULL, updated_at = now() WHERE id = $1', { bind: [id, status] }));
  }

  /** Pauses the workflow if it is active, recording why; whether it was active (only one caller pauses it). */
  async pauseActive(tenantId: string, id: string, reason: string): Promise<boolean> {
    const rows = await this.tenantDbs.query(tenantId, "UPDATE workflows SET status = 'paused', paused_reason = $2, updated_at = now() WHERE id = $1 AND status = 'active' RETURNING id", [id, reason]);
    return rows.length > 0;
  }

  async rotateSecret(tenantId: string, id: string): Promise<string> {
    const secret = newSecret();
    await this.with(tenantId, (db) => db.query('UPDATE workflows SET webhook_secret = $2, updated_at = now() WHERE id = $1', { bind: [id, secret] }));
    return secret;
  }

  /**
   * A new execution; with a trigger key (an event id, a schedule slot) at most one per workflow and
   * key: a second delivery answers undefined and writes nothing.
   */
  async createExecution(tenantId: string, g: Graph, e: NewExecutionInput): Promise<ExecutionRow | undefined> {
    const id = randomUUID();
    return this.inserts.add(tenantId, id, { ...e, id, workflow_id: g.workflow.id, workflow_name: g.workflow.name, workflow_version: g.workflow.version, nodes_total: g.nodes.length });
  }

  /** One INSERT for a batch of new executions; rows a trigger key already had are not written (absent from the answer). */
  private async insertExecutions(tenantId: string, batch: { executionId: string; item: NewExecution }[]): Promise<Map<string, ExecutionRow>> {
    const rows = batch.map(({ item: e }, n) => ({
      n, id: e.id, workflow_id: e.workflow_id, workflow_name: e.workflow_name, workflow_version: e.workflow_version, trigger_type: e.trigger_type,
      trigger_data: { v: e.trigger_data ?? null }, triggered_by: e.triggered_by, trigger_key: e.trigger_key ?? null, nodes_total: e.nodes_total,
      scheduler: { queue: e.queue, attempt: 0 }, chain: e.chain ?? [], parent_execution_id: e.parent_execution_id ?? null,
    }));
    const written = await this.tenantDbs.query<ExecutionRow>(
      tenantId,
      // Trigger data travels wrapped ({v}) so a JSON null or scalar stays itself; clock_timestamp keeps the batch's rows in arrival order.
      `INSERT INTO workflow_executions (id, workflow_id, workflow_name, workflow_version, trigger_type, trigger_data, triggered_by, trigger_key, nodes_total, context, scheduler, chain, parent_execution_id, lease_until, created_at)
       SELECT x.id, x.workflow_id, x.workflow_name, x.workflow_version, x.trigger_type, x.trigger_data->'v', x.triggered_by, x.trigger_key, x.nodes_total,
              '{"variables":{},"nodes":{}}', x.scheduler, x.chain, x.parent_execution_id, now() + $2 * interval '1 millisecond', clock_timestamp()
       FROM jsonb_to_recordset($1::jsonb) AS x(n integer, id uuid, workflow_id uuid, workflow_name text, workflow_version integer, trigger_type text, trigger_data jsonb,
              triggered_by bigint, trigger_key text, nodes_total integer, scheduler jsonb, chain jsonb, parent_execution_id uuid)
       ORDER BY x.n
       ON CONFLICT (workflow_id, trigger_key) WHERE trigger_key IS NOT NULL DO NOTHING RETURNING *`,
      // The lease covers the time its job waits in the queue; the worker renews it (run-leases.ts).
      [json(rows), this.leaseMs],
    );
    return new Map(written.map((r) => [r.id, r]));
  }

  /** The execution a trigger key already made for a workflow (a sub-workflow node's call made again). */
  async executionByKey(tenantId: string, workflowId: string, key: string): Promise<ExecutionRow | undefined> {
    return (await this.tenantDbs.query<ExecutionRow>(tenantId, 'SELECT * FROM workflow_executions WHERE workflow_id = $1 AND trigger_key = $2', [workflowId, key]))[0];
  }

  /**
   * A retry of `of` on graph `g` (README, Retry): a new execution with its trigger data, starting at
   * `queue` with `context`, recorded as `of`'s latest retry in the same statement. With `once`, only
   * when `of` was never retried: of two concurrent bulk retries one takes it, the other answers undefined.
   */
  async createRetry(tenantId: string, g: Graph, of: ExecutionRow, r: { queue: string[]; context: RunContext; triggered_by: number; once: boolean }): Promise<ExecutionRow | undefined> {
    const [row] = await this.tenantDbs.query<ExecutionRow>(
      tenantId,
      `WITH claim AS (UPDATE workflow_executions SET retried_by = $1 WHERE id = $2 AND (NOT $3::boolean OR retried_by IS NULL) RETURNING id)
       INSERT INTO workflow_executions (id, workflow_id, workflow_name, workflow_version, trigger_type, trigger_data, triggered_by, nodes_total, context, scheduler, retry_of)
       SELECT $1, $4, $5, $6, $7, $8::jsonb, $9, $10, $11::jsonb, $12::jsonb, $2 WHERE EXISTS (SELECT 1 FROM claim) RETURNING *`,
      [randomUUID(), of.id, r.once, g.workflow.id, g.workflow.name, g.workflow.version, of.trigger_type, json(of.trigger_data), r.triggered_by, g.nodes.length, json(r.context), json({ queue: r.queue, attempt: 0 })],
    );
    return row;
  }

  /** Finished runs a bulk retry may take (never retried), oldest first. */
  async retryCandidates(tenantId: string, f: { status: string; workflow_id?: string; since?: Date; until?: Date; ids?: string[]; max: number }): Promise<ExecutionRow[]> {
    return this.tenantDbs.query<ExecutionRow>(
      tenantId,
      `SELECT * FROM workflow_executions WHERE status = $1 AND retried_by IS NULL AND ($2::uuid IS NULL OR workflow_id = $2)
         AND ($3::timestamptz IS NULL OR created_at >= $3) AND ($4::timestamptz IS NULL OR created_at < $4) AND ($5::uuid[] IS NULL OR id = ANY($5::uuid[]))
       ORDER BY created_at, id LIMIT $6`,
      [f.status, f.workflow_id ?? null, f.since ?? null, f.until ?? null, f.ids ?? null, f.max],
    );
  }

  async execution(tenantId: string, id: string): Promise<ExecutionRow | undefined> {
    if (!isUuid(id)) return undefined;
    return (await this.tenantDbs.query<ExecutionRow>(tenantId, 'SELECT * FROM workflow_executions WHERE id = $1', [id]))[0];
  }

  async executions(tenantId: string, f: ExecutionFilter): Promise<{ rows: ExecutionRow[]; total: number }> {
    return this.with(tenantId, async (db) => {
      const where = `($1::uuid IS NULL OR workflow_id = $1) AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR trigger_type = $3)
        AND ($4::date IS NULL OR created_at >= $4::date) AND ($5::date IS NULL OR created_at < $5::date + 1)`;
      const bind = [f.workflow_id ?? null, f.status ?? null, f.trigger_type ?? null, f.from ?? null, f.to ?? null];
      const [{ total }] = await this.q<{ total: number }>(db, `SELECT count(*)::int AS total FROM workflow_executions WHERE ${where}`, bind);
      const rows = await this.q<ExecutionRow>(db, `SELECT * FROM workflow_executions WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $6 OFFSET $7`, [
        ...bind, f.perPage, (f.page - 1) * f.perPage,
      ]);
      return { rows, total };
    });
  }

  async logs(tenantId: string, executionId: string): Promise<LogRow[]> {
    return this.with(tenantId, (db) => this.q<LogRow>(db, 'SELECT * FROM workflow_execution_logs WHERE execution_id = $1 ORDER BY position', [executionId]));
  }

  /** The SET clause that gives a run a fresh lease, for a transition that hands it to a job (a resume). */
  get takesLease(): string {
    return `lease_until = now() + ${this.leaseMs} * interval '1 millisecond'`;
  }

  /**
   * A running execution read by the job that takes it up, with a fresh lease so that no sweep queues
   * it meanwhile; undefined when it is not running or still suspended at `now` (woken early).
   */
  async takeUp(tenantId: string, id: string, now: Date): Promise<ExecutionRow | undefined> {
    return (
      await this.tenantDbs.query<ExecutionRow>(
        tenantId, `UPDATE workflow_executions SET ${this.takesLease} WHERE id = $1 AND status = 'running' AND (resume_at IS NULL OR resume_at <= $2) RETURNING *`, [id, now],
      )
    )[0];
  }

  /**
   * Renews the leases of runs this node is running (run-leases.ts), one statement per tenant. A row
   * a checkpoint is writing is skipped (that checkpoint renews it), and the others are locked in id
   * order, so a renewal and a batch of checkpoints never wait for each other's rows.
   */
  async renewLeases(tenantId: string, ids: string[]): Promise<void> {
    await this.tenantDbs.query(
      tenantId,
      `WITH held AS (SELECT id FROM workflow_executions WHERE id = ANY($1::uuid[]) AND status IN ('pending', 'running') ORDER BY id FOR UPDATE SKIP LOCKED)
       UPDATE workflow_executions w SET lease_until = now() + $2 * interval '1 millisecond' FROM held WHERE w.id = held.id`,
      [ids, this.leaseMs],
    );
  }

  /**
   * The runs nobody holds, claimed for the caller's sweep (run-sweeper.ts): pending or running, the
   * lease expired (or released by a suspension), and not suspended past `now`. A claim takes a new
   * lease, and a row another sweep is claiming is skipped, so two nodes' sweeps never both take one.
   */
  async claimUnheld(tenantId: string, now: Date, limit: number): Promise<Pick<ExecutionRow, 'id' | 'status' | 'nodes_executed' | 'scheduler' | 'resume_at'>[]> {
    return this.tenantDbs.query(
      tenantId,
      `WITH due AS (
         SELECT id FROM workflow_executions
         WHERE status IN ('pending', 'running') AND (lease_until IS NULL OR lease_until < now()) AND (resume_at IS NULL OR resume_at <= $1)
         ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE workflow_executions w SET lease_until = now() + $3 * interval '1 millisecond' FROM due
       WHERE w.id = due.id AND w.status IN ('pending', 'running') RETURNING w.id, w.status, w.nodes_executed, w.scheduler, w.resume_at`,
      [now, limit, this.leaseMs],
    );
  }

  /** Applies `set` to an execution in one of the `from` states (and matching `and`); undefined when it was in none. */
  async transition(tenantId: string, id: string, from: readonly string[], set: string, bind: unknown[] = [], and = 'true'): Promise<ExecutionRow | undefined> {
    return (await this.tenantDbs.query<ExecutionRow>(tenantId, `UPDATE workflow_executions SET ${set} WHERE id = $1 AND status = ANY($2::text[]) AND ${and} RETURNING *`, [id, from, ...bind]))[0];
  }

  /**
   * The checkpoint after a node (spec 2, Execution): its log row and the execution's progress, written
   * together (with other runs' checkpoints of the tenant, checkpoint-batches.ts) and only while the run
   * is still running; undefined when it was not. A second writer of the same (node, attempt) — a
   * redelivered job after a killed worker — finds the row there and changes nothing.
   */
  checkpoint(tenantId: string, executionId: string, c: Checkpoint): Promise<ExecutionRow | undefined> {
    return this.checkpoints.add(tenantId, executionId, c);
  }

  /**
   * One statement for a batch of checkpoints: each run still in the state its checkpoint expects
   * (`running`, or `pending` for one that starts it, and at the node count it was read at) is locked,
   * in id order; its log rows are inserted, and it moves only if every one of them was inserted here.
   * A completing checkpoint ends its run as `finish` does, unless a
   * pause was asked for meanwhile (it then stops first, as after any other node); the workflows'
   * counters move once per run ended, their rows locked first and in id order, so that two such
   * statements (two nodes, each with runs of the same workflows) do not deadlock on them. Each
   * renews its run's lease, or releases it when the run suspends (the sweeper takes it once due).
   */
  private async writeCheckpoints(tenantId: string, batch: { executionId: string; item: Checkpoint }[]): Promise<Map<string, ExecutionRow>> {
    const logOf = (l: NodeLog) => ({ ...l, input_data: { v: l.input_data ?? null }, output_data: { v: l.output_data ?? null } });
    const rows = batch.map(({ executionId: id, item: c }) => ({
      execution_id: id, logs: [...(c.folded ?? []), c.log].map(logOf), at: c.at,
      from_status: c.start ? 'pending' : 'running', start_at: c.start ?? null, context: c.context ?? null, scheduler: c.scheduler ?? null,
      set_resume: c.resume_at !== undefined, resume_at: c.resume_at ?? null, executed: c.executed ?? 0, failed: c.failed ?? 0,
      result: { v: c.complete?.result ?? null }, complete_at: c.complete?.at ?? null,
    }));
    const done = '(x.complete_at IS NOT NULL AND NOT w.pause_requested)';
    const moved = await this.tenantDbs.query<ExecutionRow>(
      tenantId,
      `WITH x AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(execution_id uuid, logs jsonb, at int, from_status text, start_at timestamptz, context jsonb,
           scheduler jsonb, set_resume boolean, resume_at timestamptz, executed int, failed int, result jsonb, complete_at timestamptz)),
       held AS (
         SELECT e.id FROM x JOIN workflow_executions e ON e.id = x.execution_id AND e.status = x.from_status AND e.nodes_executed = x.at ORDER BY e.id FOR UPDATE OF e),
       ins AS (
         INSERT INTO workflow_execution_logs (execution_id, node_id, node_type, node_label, status, input_data, output_data, error_message, retry_attempt, started_at, completed_at, duration_ms)
         SELECT x.execution_id, l.node_id, l.node_type, l.node_label, l.status, l.input_data->'v', l.output_data->'v', l.error_message, l.retry_attempt, l.started_at, l.completed_at, l.duration_ms
         FROM x JOIN held ON held.id = x.execution_id
         CROSS JOIN LATERAL ROWS FROM (jsonb_to_recordset(x.logs) AS (node_id uuid, node_type text, node_label text, status text, input_data jsonb, output_data jsonb,
           error_message text, retry_attempt int, started_at timestamptz, completed_at timestamptz, duration_ms int)) WITH ORDINALITY AS l
         ORDER BY x.execution_id, l.ordinality
         ON CONFLICT (execution_id, node_id, retry_attempt) WHERE status <> 'waiting' DO NOTHING RETURNING execution_id),
       written AS (SELECT execution_id, count(*) AS n FROM ins GROUP BY execution_id),
       e AS (
         UPDATE workflow_executions w SET context = COALESCE(x.context, w.context), scheduler = COALESCE(x.scheduler, w.scheduler),
                nodes_executed = w.nodes_executed + x.executed, nodes_failed = w.nodes_failed + x.failed,
                resume_at = CASE WHEN x.set_resume THEN x.resume_at ELSE w.resume_at END, started_at = COALESCE(w.started_at, x.start_at),
                lease_until = CASE WHEN x.resume_at IS NOT NULL THEN NULL ELSE now() + $2 * interval '1 millisecond' END,
                status = CASE WHEN ${done} THEN 'completed' ELSE 'running' END,
                result = CASE WHEN ${done} THEN x.result->'v' ELSE w.result END,
                completed_at = CASE WHEN ${done} THEN x.complete_at ELSE w.completed_at END,
                duration_ms = CASE WHEN ${done} THEN ${DURATION_MS('x.complete_at', 'w')} ELSE w.duration_ms END
         FROM x JOIN written ON written.execution_id = x.execution_id AND written.n = jsonb_array_length(x.logs)
         WHERE w.id = x.execution_id AND w.status = x.from_status RETURNING ${EXECUTION_COLUMNS}),
       ended AS (SELECT workflow_id, count(*)::int AS n, max(completed_at) AS at FROM e WHERE status = 'completed' GROUP BY workflow_id),
       locked AS (SELECT id FROM workflows WHERE id IN (SELECT workflow_id FROM ended) ORDER BY id FOR UPDATE),
       counted AS (
         UPDATE workflows SET execution_count = execution_count + ended.n, success_count = success_count + ended.n, last_executed_at = GREATEST(last_executed_at, ended.at)
         FROM ended WHERE workflows.id = ended.workflow_id AND (SELECT count(*) FROM locked) > 0)
       SELECT * FROM e`,
      [JSON.stringify(rows), this.leaseMs],
      'workflow-checkpoints',
    );
    return new Map(moved.map((r) => [r.id, r]));
  }

  /**
   * A run's end: status, result, duration, and its workflow's counters (spec 2, Workflow:
   * execution_count, success_count, failure_count, last_executed_at), in one statement, once.
   */
  async finish(tenantId: string, id: string, status: 'completed' | 'failed', result: unknown, error: string | null, at: Date): Promise<ExecutionRow | undefined> {
    const [row] = await this.tenantDbs.query<ExecutionRow>(
      tenantId,
      `WITH e AS (
         UPDATE workflow_executions SET status = $2, result = $3::jsonb, error_message = $4, completed_at = $5, resume_at = NULL, duration_ms = ${DURATION_MS('$5')}
         WHERE id = $1 AND status IN ('running', 'pending') RETURNING *),
       w AS (
         UPDATE workflows SET execution_count = execution_count + 1, success_count = success_count + ($2 = 'completed')::int,
                failure_count = failure_count + ($2 = 'failed')::int, last_executed_at = $5
         FROM e WHERE workflows.id = e.workflow_id)
       SELECT * FROM e`,
      [id, status, json(result), error, at],
    );
    return row;
  }

  async stats(tenantId: string, now: Date) {
    return this.with(tenantId, async (db) => {
      const [w] = await this.q<Record<string, number>>(
        db,
        `SELECT count(*)::int AS total_workflows, count(*) FILTER (WHERE status = 'active')::int AS active_workflows,
                count(*) FILTER (WHERE status = 'paused')::int AS paused_workflows, count(*) FILTER (WHERE status = 'draft')::int AS draft_workflows FROM workflows`,
        [],
      );
      const [e] = await this.q<Record<string, number | null>>(
        db,
        `SELECT count(*) FILTER (WHERE created_at >= date_trunc('day', $1::timestamptz))::int AS executions_today,
                count(*) FILTER (WHERE created_at >= date_trunc('week', $1::timestamptz))::int AS executions_this_week,
                count(*) FILTER (WHERE created_at >= date_trunc('month', $1::timestamptz))::int AS executions_this_month,
                count(*) FILTER (WHERE status = 'completed')::int AS completed, count(*) FILTER (WHERE status = 'failed')::int AS failed,
                avg(duration_ms) FILTER (WHERE status = 'completed')::float AS average_duration_ms FROM workflow_executions`,
        [now],
      );
      const most = await this.q<{ id: string; name: string; count: number }>(db, 'SELECT id, name, execution_count AS count FROM workflows WHERE execution_count > 0 ORDER BY execution_count DESC, name LIMIT 5', []);
      const failures = await this.q<{ id: string; workflow_name: string; error: string | null }>(
        db, "SELECT id, workflow_name, error_message AS error FROM workflow_executions WHERE status = 'failed' ORDER BY completed_at DESC NULLS LAST LIMIT 5", [],
      );
      const finished = Number(e.completed) + Number(e.failed);
      return {
        ...w, executions_today: e.executions_today, executions_this_week: e.executions_this_week, executions_this_month: e.executions_this_month,
        success_rate: finished ? Math.round((Number(e.completed) / finished) * 10_000) / 100 : 0,
        average_duration_ms: e.average_duration_ms === null ? 0 : Math.round(Number(e.average_duration_ms) * 100) / 100,
        most_executed: most, recent_failures: failures,
      };
    });
  }
}
