/**
 * Streamed module responses open at once per tenant on this node. Each holds a sandbox call, a
 * socket and up to MAX_BUFFERED_BYTES (response-stream.ts) for as long as its route's timeout_s, so
 * one tenant's readers, or one slow client opening stream after stream, cannot take a node's memory
 * or its modules' calls from the others. Past MODULE_STREAMS_PER_TENANT: 429 STREAM_LIMIT.
 */
import { moduleErrors } from './errors';

export class StreamSlots {
  /** Tenants with a stream open; a tenant's entry goes with its last stream. */
  private readonly open = new Map<string, number>();

  constructor(private readonly perTenant: number) {}

  /** Takes a slot for `tenantId`; call the returned function once, when the stream's call has ended. */
  take(tenantId: string): () => void {
    const held = this.open.get(tenantId) ?? 0;
    if (held >= this.perTenant) {
      throw moduleErrors.streamLimit(held, this.perTenant);
    }
    this.open.set(tenantId, held + 1);
    return () => {
      const left = (this.open.get(tenantId) ?? 1) - 1;
      if (left === 0) this.open.delete(tenantId);
      else this.open.set(tenantId, left);
    };
  }
}
