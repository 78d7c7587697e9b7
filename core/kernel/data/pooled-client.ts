/**
 * A connection of a Sequelize pool used straight through pg, for hot paths where the ORM's query
 * pipeline costs several times more per call. Sequelize does not type its connection manager, so
 * the one cast lives here.
 */
import type { ClientBase } from 'pg';
import type { Sequelize } from 'sequelize';

interface ConnectionManager {
  getConnection(o: { type: 'write' }): Promise<ClientBase>;
  releaseConnection(c: ClientBase): Promise<void>;
}

/** Runs fn on a pooled connection and returns the connection to the pool, whatever fn does. */
export async function withPooledClient<T>(db: Sequelize, fn: (client: ClientBase) => Promise<T>): Promise<T> {
  const manager = db.connectionManager as unknown as ConnectionManager;
  const client = await manager.getConnection({ type: 'write' });
  try {
    return await fn(client);
  } finally {
    await manager.releaseConnection(client);
  }
}
