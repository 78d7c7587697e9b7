/** Errors of the module registry (publishing, downloading, publishers). */
import { defineErrors } from '../core/kernel/errors';

export const registryErrors = defineErrors('registry', {
  publisherExists: {
    code: 'PUBLISHER_EXISTS', status: 409,
    doc: 'A publisher of that name already exists.',
    message: (name: string) => `Publisher "${name}" already exists.`,
  },
  fileMissing: {
    code: 'MODULE_FILE_MISSING', status: 404,
    doc: 'A module package holds no file at the path its manifest names.',
    message: (file: string) => `The package holds no file "${file}".`,
    details: (file: string) => ({ file }),
  },
  packageRequired: {
    code: 'PACKAGE_REQUIRED', status: 400,
    doc: 'A publish request carried no package: send its bytes (from `mandi module pack`) with Content-Type application/gzip.',
    message: () => 'Send the package bytes as the request body with Content-Type application/gzip (from `mandi module pack`).',
  },
  ownPublisherOnly: {
    code: 'FORBIDDEN', status: 403,
    message: () => 'A publisher token publishes as its own publisher only.',
  },
  badPlatformRange: {
    code: 'PACKAGE_INVALID', status: 422,
    doc: 'The package is not acceptable: its manifest fails validation (issues lists where), or its archive is malformed.',
    message: (alias: string, version: string) => `${alias}@${version}: compatibility.platform must be a SemVer range, e.g. "^2.0.0".`,
    details: () => ({ issues: [{ pointer: '/compatibility/platform', message: 'must be a valid SemVer range' }] }),
  },
  manifestInvalid: {
    code: 'PACKAGE_INVALID', status: 422,
    doc: 'The package is not acceptable: its manifest fails validation (issues lists where), or its archive is malformed.',
    message: (message: string, _issues: unknown) => message,
    details: (_message: string, issues: unknown) => ({ issues }),
  },
  packageUnreadable: {
    code: 'PACKAGE_INVALID', status: 422,
    doc: 'The package is not acceptable: its manifest fails validation (issues lists where), or its archive is malformed.',
    message: (reason: string) => `The package is not acceptable: ${reason}.`,
  },
  packageMissing: {
    code: 'PACKAGE_MISSING', status: 500,
    doc: "A published package's bytes are missing from the blob store (REGISTRY_DIR).",
    message: (alias: string, version: string) => `The package of ${alias}@${version} is missing from the blob store.`,
    details: (alias: string, version: string) => ({ module: alias, version }),
  },
  packageAltered: {
    code: 'PACKAGE_INTEGRITY', status: 500,
    doc: 'A stored package no longer matches the sha256 recorded when it was published; it was altered and is not used.',
    message: (alias: string, version: string, _expected: string, _actual: string) =>
      `The stored package of ${alias}@${version} does not match the sha256 recorded when it was published; it was altered and will not be used.`,
    details: (alias: string, version: string, expected: string, actual: string) => ({ module: alias, version, expected_sha256: expected, actual_sha256: actual }),
  },
  aliasOwned: {
    code: 'ALIAS_OWNED', status: 403,
    doc: 'The module alias belongs to another publisher; only its publisher or a super admin may publish it.',
    message: (alias: string) => `Module ${alias} belongs to another publisher; only its publisher or a super admin may publish it.`,
    details: (alias: string) => ({ module: alias }),
  },
  signatureUnverifiable: {
    code: 'SIGNATURE_UNVERIFIABLE', status: 422,
    doc: 'The package is signed but its publisher has no registered public key to verify it with.',
    message: () => 'The package is signed but its publisher has no registered public key to verify it with.',
  },
  signatureRequired: {
    code: 'SIGNATURE_REQUIRED', status: 422,
    doc: 'The publisher has a registered key, so its packages must be signed (mandi module publish --key).',
    message: (publisher: string) => `Publisher "${publisher}" has a registered key: sign the package (mandi module publish --key <private key>).`,
  },
  signatureInvalid: {
    code: 'SIGNATURE_INVALID', status: 422,
    doc: "The signature does not match the package and the publisher's key: the package was altered or signed with another key.",
    message: (publisher: string) =>
      `The signature does not match the package and the key of publisher "${publisher}"; the package was altered or signed with another key.`,
  },
  versionExists: {
    code: 'VERSION_EXISTS', status: 409,
    doc: 'That version is already published; published versions are final: publish a new version.',
    message: (alias: string, version: string) => `${alias}@${version} is already published; published versions are final, publish a new version instead.`,
    details: (alias: string, version: string) => ({ module: alias, version }),
  },
});
