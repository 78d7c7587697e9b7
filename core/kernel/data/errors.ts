/** Errors of the platform's own databases. */
import { defineErrors } from '../errors';

export const databaseErrors = defineErrors('databases', {
  busy: {
    code: 'DATABASE_BUSY', status: 503,
    doc: 'Every tenant database connection is in use (TENANT_POOL_MAX_TOTAL); retry shortly.',
    message: () => 'All tenant database connections are in use; retry shortly.',
  },
});
