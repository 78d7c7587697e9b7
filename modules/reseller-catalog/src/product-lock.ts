/**
 * The master product's row lock (level 0). Reserving its stock, changing a sub-reseller's price row
 * for it (is_available) and deleting it each take it first in their transaction, so of two such
 * changes racing, one commits wholly before the other reads: a product marked unavailable or deleted
 * while a chain order is being accepted is either seen by that accept or changed after it (spec 3,
 * Reseller product pricing; Master product). host.db has no SELECT ... FOR UPDATE: the lock is an
 * UPDATE that writes the status the row already has, held until the transaction ends.
 */
import type { DbTransaction } from '../../../sdk';
import type { MasterProductRow } from './models';

/** Locks the product while its status is `status`; false when it is gone or its status changed meanwhile. */
export async function lockProduct(tx: DbTransaction, id: string, status: MasterProductRow['status'] = 'active'): Promise<boolean> {
  return (await tx.update<MasterProductRow>('MasterProduct', { status }, { where: { id, status } })) === 1;
}
