/**
 * What a module may keep: names as the manifest's `secrets[].name` pattern allows (also a safe key
 * in URLs and logs), values up to 64 KB (a PEM private key fits; a database dump does not), and as
 * many secrets per module and tenant as the manifest may declare (100; rows of names an older
 * version declared count too). Name pattern and count come from the manifest schema itself; the
 * value bound is the secrets.set contract's (sdk/contracts/platform/secrets.ts).
 */
import { SECRET_VALUE_BYTES } from '../../../sdk/contracts/platform';
import { manifestSchema } from '../../../sdk/manifest';

export const SECRET_LIMITS = { valueBytes: SECRET_VALUE_BYTES, perModule: manifestSchema.properties.secrets.maxItems } as const;
