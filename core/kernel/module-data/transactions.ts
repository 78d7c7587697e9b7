/**
 * Explicit host.db transactions. Each is bound to the (tenant, module, owner) that began it; the
 * owner is the invocation (the bus passes its id as ownerKey) and `releaseAll(ownerKey)` rolls back
 * whatever the invocation left open. A transaction open longer than the timeout is rolled back too.
 * Ids are random and meaningless, so a guessed or leaked id reaches nothing of another owner.
 */
import { randomUUID } from 'node:crypto';
import type { Sequelize, Transaction } from 'sequelize';
import { dataErrors } from './db-errors';
import type { Logger } from '../logger';

export interface TxScope {
  tenantId: string;
  alias: string;
  ownerKey: string;
}

/** What statements of a transaction run on: its pool and the transaction itself. */
export interface TxHandle {
  db: Sequelize;
  transaction: Transaction;
}

interface OpenTx extends TxScope {
  id: string;
  handle: TxHandle;
  timer: NodeJS.Timeout;
  /** Lets the tenant pool go once the transaction ends. */
  release: () => void;
  /** Set when the host ended it (timeout, failed statement, owner released); later use names why. */
  closedBecause?: string;
  queue: Promise<unknown>;
}

export class TransactionRegistry {
  private readonly open = new Map<string, OpenTx>();
  private readonly byOwner = new Map<string, Set<string>>();
  /** Recently ended by the host: their id still explains itself for a while. */
  private readonly ended = new Map<string, string>();

  constructor(
    private readonly opts: { timeoutMs: number; maxPerOwner: number },
    private readonly logger: Logger,
  ) {}

  /**
   * Registers a transaction begun by `start`, which must resolve with it and keep its connection
   * until `release` is called.
   */
  async begin(scope: TxScope, start: () => Promise<{ handle: TxHandle; release: () => void }>): Promise<string> {
    const id = `tx_${randomUUID()}`;
    const owned = this.byOwner.get(scope.ownerKey) ?? this.byOwner.set(scope.ownerKey, new Set()).get(scope.ownerKey)!;
    if (owned.size >= this.opts.maxPerOwner) {
      throw dataErrors.tooManyTransactions(this.opts.maxPerOwner);
    }
    owned.add(id); // reserved now, so concurrent begins count and releaseAll sees it
    let started: { handle: TxHandle; release: () => void };
    try {
      started = await start();
    } catch (err) {
      this.forget(id, scope.ownerKey);
      throw err;
    }
    const timer = setTimeout(() => void this.end(id, 'rollback', `it was open longer than ${this.opts.timeoutMs} ms`), this.opts.timeoutMs);
    timer.unref();
    this.open.set(id, { ...scope, id, handle: started.handle, timer, release: started.release, queue: Promise.resolve() });
    // The owner was released while the transaction was opening: nobody would ever end it.
    if (!owned.has(id)) {
      await this.end(id, 'rollback', 'the call that began it ended');
      throw dataErrors.transactionClosed('The call ended before its transaction began.');
    }
    return id;
  }

  /** The open transaction with this id, if it belongs to scope. */
  private get(id: string, scope: TxScope): OpenTx {
    const tx = this.open.get(id);
    if (!tx) {
      const why = this.ended.get(id);
      throw dataErrors.transactionClosed(why ? `Transaction ${id} was rolled back because ${why}.` : `Transaction ${id} is not open.`);
    }
    if (tx.tenantId !== scope.tenantId || tx.alias !== scope.alias || tx.ownerKey !== scope.ownerKey) {
      throw dataErrors.transactionClosed(`Transaction ${id} is not open.`);
    }
    return tx;
  }

  /** Runs statements of one transaction one after another (one connection serves it). */
  async run<T>(id: string, scope: TxScope, fn: (h: TxHandle) => Promise<T>): Promise<T> {
    const tx = this.get(id, scope);
    const result = tx.queue.then(() => {
      if (tx.closedBecause) throw dataErrors.transactionClosed(`Transaction ${id} was rolled back because ${tx.closedBecause}.`);
      return fn(tx.handle);
    });
    tx.queue = result.catch(() => undefined);
    try {
      return await result;
    } catch (err) {
      // PostgreSQL refuses everything after a failed statement; end it now and say why later.
      await this.end(id, 'rollback', `a statement in it failed (${(err as Error).message})`);
      throw err;
    }
  }

  async commit(id: string, scope: TxScope): Promise<void> {
    const tx = this.get(id, scope);
    await tx.queue;
    await this.end(id, 'commit');
  }

  async rollback(id: string, scope: TxScope): Promise<void> {
    if (!this.open.has(id) && this.ended.has(id)) return;
    this.get(id, scope);
    await this.end(id, 'rollback');
  }

  /** Rolls back every transaction the owner left open; returns how many there were. */
  async releaseAll(ownerKey: string): Promise<number> {
    const owned = this.byOwner.get(ownerKey);
    const ids = [...(owned ?? [])];
    owned?.clear(); // a begin still opening sees its slot gone and rolls back
    this.byOwner.delete(ownerKey);
    await Promise.all(ids.map((id) => this.end(id, 'rollback', 'the call that began it ended')));
    return ids.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.open.keys()].map((id) => this.end(id, 'rollback', 'the host shut down')));
  }

  private async end(id: string, how: 'commit' | 'rollback', reason?: string): Promise<void> {
    const tx = this.open.get(id);
    if (!tx) return;
    this.open.delete(id);
    clearTimeout(tx.timer);
    this.forget(id, tx.ownerKey);
    if (reason) {
      tx.closedBecause = reason;
      this.remember(id, reason);
      this.logger.debug({ txId: id, module: tx.alias, tenantId: tx.tenantId, reason }, 'host.db transaction rolled back by the host');
    }
    try {
      if (how === 'commit') await tx.handle.transaction.commit();
      else await tx.handle.transaction.rollback();
    } catch (err) {
      if (how === 'commit') {
        await tx.handle.transaction.rollback().catch(() => undefined);
        throw err;
      }
      this.logger.warn({ err, txId: id, module: tx.alias }, 'rolling back a host.db transaction failed');
    } finally {
      tx.release();
    }
  }

  private forget(id: string, ownerKey: string): void {
    const owned = this.byOwner.get(ownerKey);
    owned?.delete(id);
    if (owned?.size === 0) this.byOwner.delete(ownerKey);
  }

  private remember(id: string, reason: string): void {
    this.ended.set(id, reason);
    // Bounded memory: the oldest explanations go first.
    if (this.ended.size > 10_000) this.ended.delete(this.ended.keys().next().value!);
  }
}
