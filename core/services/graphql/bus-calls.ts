/**
 * The bus as one GraphQL request sees it. Every resolver goes through `Bus.call` as the edge caller
 * `graphql`, with the request's tenant, user, permissions and id (spec 1, GraphQL rule 3), so
 * consumes checks, rate limits, input validation and audit apply as they do for REST.
 *
 * Reads are batched per request with DataLoader, keyed by operation and input: N parents asking for
 * the same related record make one bus call, not N (issue 5 item 8; not part of spec v1, rule 10).
 * Writes are never deduplicated: two identical mutation fields mean two mutations.
 */
import DataLoader from 'dataloader';
import type { Bus } from '../../kernel/bus/bus';
import type { Caller, CallContext } from '../../kernel/bus/types';
import { stableJson } from './json-scalar';

export const GRAPHQL_CALLER: Caller = { kind: 'edge', via: 'graphql' };

interface Key {
  operation: string;
  input: unknown;
}

export class RequestBusCalls {
  /** Bus calls actually made for this request (deduplicated reads count once). */
  made = 0;
  private readonly reads: DataLoader<Key, unknown, string>;

  constructor(private readonly bus: Bus, private readonly ctx: CallContext) {
    this.reads = new DataLoader<Key, unknown, string>(
      (keys) => Promise.all(keys.map((k) => this.call(k.operation, k.input).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err)))))),
      { cacheKeyFn: (k) => `${k.operation}\u0000${stableJson(k.input)}` },
    );
  }

  read(operation: string, input: unknown): Promise<unknown> {
    return this.reads.load({ operation, input });
  }

  write(operation: string, input: unknown): Promise<unknown> {
    return this.call(operation, input);
  }

  private call(operation: string, input: unknown): Promise<unknown> {
    this.made++;
    return this.bus.call(GRAPHQL_CALLER, operation, input, this.ctx);
  }
}
