/** Errors of rings and their lifecycle operations (promotion, ring rollback, tenant moves, upgrades). */
import { defineErrors } from '../core/kernel/errors';
import type { Refusal } from './release-checks';

const REFUSED = 'The change was refused before anything moved; details.reasons lists every reason (dependencies, platform range, routes, breaking changes, migrations).';
const refusal = (summary: string, reasons: Refusal[]) => `${summary}: ${reasons.map((r) => r.message).join('; ')}`;
const FAILED =
  'A module migration failed while tenants were being moved; the tenants already moved were moved back (details.undone; details.not_undone names any that need an operator). 500 when the cause was the platform\'s own.';

/** What a failed move reports: the move that failed, its cause, and what became of the moves before it. */
export interface MoveFailureDetails {
  failed: unknown;
  cause: { status: number };
  undone: unknown[];
  not_undone: unknown[];
}

const moveFailure = (code: string) => ({
  code, status: 422, doc: FAILED,
  message: (message: string, _details: MoveFailureDetails) => message,
  details: (_message: string, details: MoveFailureDetails) => ({ ...details }),
  statusFor: (_message: string, details: MoveFailureDetails) => (details.cause.status >= 500 ? 500 : 422),
});

export const ringErrors = defineErrors('rings', {
  assignRefused: { code: 'ASSIGN_REFUSED', status: 422, doc: REFUSED, message: refusal, details: (_s: string, reasons: Refusal[]) => ({ reasons }) },
  routesOverlap: {
    code: 'ROUTES_OVERLAP', status: 422,
    doc: "A module's routes overlap another module's in a ring that would release both; details.reasons names them.",
    message: refusal, details: (_s: string, reasons: Refusal[]) => ({ reasons }),
  },
  promotionRefused: { code: 'PROMOTION_REFUSED', status: 422, doc: REFUSED, message: refusal, details: (_s: string, reasons: Refusal[]) => ({ reasons }) },
  rollbackRefused: { code: 'ROLLBACK_REFUSED', status: 422, doc: REFUSED, message: refusal, details: (_s: string, reasons: Refusal[]) => ({ reasons }) },
  upgradeRefused: { code: 'UPGRADE_REFUSED', status: 422, doc: REFUSED, message: refusal, details: (_s: string, reasons: Refusal[]) => ({ reasons }) },
  assignFailed: moveFailure('ASSIGN_FAILED'),
  promotionFailed: moveFailure('PROMOTION_FAILED'),
  rollbackFailed: moveFailure('ROLLBACK_FAILED'),
  alreadyInRing: {
    code: 'ALREADY_IN_RING', status: 409,
    doc: 'The tenant is already in that ring.',
    message: (tenantId: string, ring: string) => `Tenant ${tenantId} is already in ring ${ring}.`,
    details: (_tenantId: string, ring: string) => ({ ring }),
  },
  operationInProgress: {
    code: 'OPERATION_IN_PROGRESS', status: 409,
    doc: 'Another lifecycle operation is running on the same ring, module or tenant; wait for it to finish (details.operation_id).',
    message: (what: string, operationId: string) => `Another lifecycle operation (${operationId}) is already running on ${what}; wait for it to finish.`,
    details: (_what: string, operationId: string) => ({ operation_id: operationId }),
  },
  sameRing: {
    code: 'SAME_RING', status: 422,
    doc: 'A promotion names the same ring as its source and target.',
    message: () => 'A promotion goes from one ring to another; name two different rings.',
  },
  notInSourceRing: {
    code: 'NOT_IN_SOURCE_RING', status: 422,
    doc: 'The source ring of a promotion does not release the version asked for.',
    message: (from: string, alias: string, version: string, inSource: string | null) =>
      `Ring ${from} releases ${inSource ? `${alias}@${inSource}` : `no version of ${alias}`}, not ${alias}@${version}.`,
    details: (from: string, _alias: string, _version: string, inSource: string | null) => ({ ring: from, released: inSource }),
  },
  alreadyReleased: {
    code: 'ALREADY_RELEASED', status: 409,
    doc: 'The target ring already releases that version.',
    message: (ring: string, alias: string, version: string) => `Ring ${ring} already releases ${alias}@${version}.`,
    details: (ring: string) => ({ ring }),
  },
  downgrade: {
    code: 'DOWNGRADE', status: 422,
    doc: 'The target ring releases a newer version: going back is a ring rollback, not a promotion.',
    message: (ring: string, alias: string, current: string, version: string) => `Ring ${ring} releases ${alias}@${current}, newer than ${version}; use a ring rollback to go back.`,
    details: (ring: string, _alias: string, current: string) => ({ ring, released: current }),
  },
  promotionOutdated: {
    code: 'RELEASE_CHANGED', status: 409,
    doc: 'The ring changed between the request and its run (another operation released something); ask again.',
    message: (ring: string, alias: string, current: string | null) => `Ring ${ring} changed since the promotion was asked for (${alias} is now ${current ?? 'absent'}); ask again.`,
  },
  rollbackOutdated: {
    code: 'RELEASE_CHANGED', status: 409,
    doc: 'The ring changed between the request and its run (another operation released something); ask again.',
    message: (ring: string) => `Ring ${ring} changed since the rollback was asked for; ask again.`,
  },
  noEarlierRelease: {
    code: 'NOTHING_TO_ROLL_BACK', status: 422,
    doc: 'There is nothing older to go back to: the ring has no earlier release, or the module no older version.',
    message: (ring: string) => `Ring ${ring} has no earlier release to return to.`,
    details: (ring: string) => ({ ring }),
  },
  noOlderVersion: {
    code: 'NOTHING_TO_ROLL_BACK', status: 422,
    doc: 'There is nothing older to go back to: the ring has no earlier release, or the module no older version.',
    message: (alias: string, current: string, ring: string | null) => `There is no version of ${alias} older than ${current}${ring ? ` that ring ${ring} released` : ''}.`,
    details: (alias: string) => ({ module: alias }),
  },
  ringExists: {
    code: 'RING_EXISTS', status: 409,
    doc: 'Another ring already has that name or position (details.field).',
    message: (field: 'name' | 'position', name: string, position: unknown) =>
      field === 'position' ? `Another ring already has position ${String(position)}.` : `Ring "${name}" already exists.`,
    details: (field: 'name' | 'position') => ({ field }),
  },
  nothingToUpgrade: {
    code: 'NOTHING_TO_UPGRADE', status: 422,
    doc: "There is no newer version to upgrade to (in the tenant's ring, when rings manage it).",
    message: (alias: string, from: string, available: string, ring: string | null) =>
      `Module ${alias} is at ${from}; there is no newer version to upgrade to${ring ? ` in ring ${ring}` : ''}.`,
    details: (alias: string, from: string, available: string) => ({ module: alias, installed: from, available }),
  },
  moduleNotInRing: {
    code: 'MODULE_NOT_IN_RING', status: 422,
    doc: "The tenant's ring does not release the module; a platform admin promotes a version into the ring first.",
    message: (ring: string, alias: string) => `Ring ${ring} does not release module ${alias}; a platform admin promotes a version into ${ring} first.`,
    details: (ring: string, alias: string) => ({ ring, module: alias }),
  },
  versionNotInRing: {
    code: 'VERSION_NOT_IN_RING', status: 422,
    doc: "The tenant's ring releases another version of the module than the one asked for.",
    message: (ring: string, alias: string, released: string, asked: string) => `Ring ${ring} releases ${alias}@${released}, not ${asked}.`,
    details: (ring: string, alias: string, released: string, asked: string) => ({ ring, module: alias, released, asked }),
  },
  versionNotAllowed: {
    code: 'VERSION_NOT_ALLOWED', status: 422,
    doc: 'A module rollback names a version that is not an older one available (details.allowed lists them).',
    message: (alias: string, version: string, older: string[], ring: string | null) =>
      ring
        ? `${alias}@${version} is not an older version that ring ${ring} released; choose one of: ${older.join(', ') || 'none'}.`
        : `${alias}@${version} is not an older version available; choose one of: ${older.join(', ') || 'none'}.`,
    details: (alias: string, _version: string, older: string[]) => ({ module: alias, allowed: older }),
  },
});

/** A refusal's factory (summary and reasons), for checks that refuse in the caller's name. */
export type Refuse = (summary: string, reasons: Refusal[]) => Error;
/** A failed move's factory, for the moves of one kind of operation. */
export type MoveFailure = (message: string, details: MoveFailureDetails) => Error;
