/**
 * A HostBridge for tests of the sandbox itself: records what the guest asked for and keeps an
 * in-memory table store with real transaction semantics (writes inside a transaction are visible
 * only after commit). The core's bridge runs on PostgreSQL; this one exists because the sandbox
 * must be testable without the bus.
 */
import type { DbMethod, FetchRequest, FetchResponse, HostBridge, LogLevel } from './types';

type Row = Record<string, unknown>;
type Where = Record<string, unknown> | undefined;

interface Query {
  where?: Where;
}

export class TestBridge implements HostBridge {
  readonly calls: { op: string; input: unknown }[] = [];
  readonly dbCalls: { method: DbMethod; args: unknown[]; txId?: string }[] = [];
  readonly events: { event: string; payload: unknown }[] = [];
  readonly logs: { level: LogLevel; message: string; data?: unknown }[] = [];
  /** Committed rows by model. */
  readonly tables = new Map<string, Row[]>();
  /** Open transactions: a private copy of every table, swapped in on commit. */
  readonly transactions = new Map<string, Map<string, Row[]>>();
  clock = Date.UTC(2030, 0, 1);
  /** Answers host.call; defaults to echoing. */
  onCall: (op: string, input: unknown) => unknown = (op, input) => ({ op, input });
  onFetch: (req: FetchRequest) => Promise<FetchResponse> = async () => {
    throw Object.assign(new Error('fetch is not configured in this test'), { code: 'FETCH_DENIED' });
  };
  private readonly sequences = new Map<string, number>();
  private nextTx = 0;

  async call(op: string, input: unknown): Promise<unknown> {
    this.calls.push({ op, input });
    return this.onCall(op, input);
  }

  async db(method: DbMethod, args: unknown[], txId?: string): Promise<unknown> {
    this.dbCalls.push(txId === undefined ? { method, args } : { method, args, txId });
    switch (method) {
      case 'tx.begin': {
        const id = `tx${++this.nextTx}`;
        this.transactions.set(id, new Map([...this.tables].map(([k, rows]) => [k, rows.map((r) => ({ ...r }))])));
        return id;
      }
      case 'tx.commit': {
        const tx = this.txTables(txId);
        this.tables.clear();
        for (const [k, rows] of tx) this.tables.set(k, rows);
        this.transactions.delete(txId!);
        return undefined;
      }
      case 'tx.rollback':
        this.txTables(txId);
        this.transactions.delete(txId!);
        return undefined;
      case 'sequence': {
        const name = String(args[0]);
        const next = (this.sequences.get(name) ?? 0) + 1;
        this.sequences.set(name, next);
        return next;
      }
      default:
        return this.data(method, args, txId === undefined ? this.tables : this.txTables(txId));
    }
  }

  async emit(event: string, payload: unknown): Promise<void> {
    this.events.push({ event, payload });
  }

  log(level: LogLevel, message: string, data?: unknown): void {
    this.logs.push(data === undefined ? { level, message } : { level, message, data });
  }

  fetch(req: FetchRequest): Promise<FetchResponse> {
    return this.onFetch(req);
  }

  now(): number {
    return this.clock;
  }

  private txTables(txId: string | undefined): Map<string, Row[]> {
    const tx = txId === undefined ? undefined : this.transactions.get(txId);
    if (!tx) throw Object.assign(new Error(`no open transaction ${txId}`), { code: 'TX_NOT_FOUND' });
    return tx;
  }

  private data(method: DbMethod, args: unknown[], tables: Map<string, Row[]>): unknown {
    const model = String(args[0]);
    const rows = tables.get(model) ?? [];
    tables.set(model, rows);
    const matches = (q: unknown) => (row: Row) =>
      Object.entries((q as Query | undefined)?.where ?? {}).every(([k, v]) => row[k] === v);
    switch (method) {
      case 'find':
        return rows.filter(matches(args[1]));
      case 'findOne':
        return rows.find(matches(args[1])) ?? null;
      case 'count':
        return rows.filter(matches(args[1])).length;
      case 'create': {
        const row = { id: rows.length + 1, ...(args[1] as Row) };
        rows.push(row);
        return row;
      }
      case 'bulkCreate':
        return (args[1] as Row[]).map((values) => this.data('create', [model, values], tables));
      case 'update': {
        const hit = rows.filter(matches(args[2]));
        for (const row of hit) Object.assign(row, args[1] as Row);
        return [hit.length];
      }
      case 'upsert': {
        const existing = rows.find(matches(args[2]));
        if (existing) return Object.assign(existing, args[1] as Row);
        return this.data('create', [model, args[1]], tables);
      }
      case 'destroy': {
        const keep = rows.filter((r) => !matches(args[1])(r));
        tables.set(model, keep);
        return rows.length - keep.length;
      }
      default:
        throw Object.assign(new Error(`unknown db method ${method}`), { code: 'BAD_METHOD' });
    }
  }
}

/**
 * Wraps a module body in the shape esbuild gives a bundle (format iife, globalName
 * __mandi_module). The body returns the module definition, e.g. `return { default: {...} }`.
 */
export const iife = (body: string): string => `var __mandi_module = (() => {\n${body}\n})();\n`;
