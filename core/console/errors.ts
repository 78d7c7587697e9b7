/** Errors of the web console's own routes. */
import { defineErrors } from '../kernel/errors';

export const consoleErrors = defineErrors('console', {
  seedOutsideDevelopment: {
    code: 'ROUTE_NOT_FOUND', status: 404,
    message: (path: string) => `No route for POST ${path}. Seeding from the console is for development; use \`mandi platform seed\`.`,
  },
  seedFailed: {
    code: 'SEED_FAILED', status: 502,
    doc: "Seeding demo data from the console stopped (details.reasons says where).",
    message: (reason: string, _lines: unknown) => `Seeding stopped: ${reason}`,
    details: (_reason: string, lines: unknown) => ({ reasons: lines }),
  },
});
