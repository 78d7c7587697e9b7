/**
 * What a module may keep: names as the manifest's `secrets[].name` pattern allows (also a safe key
 * in URLs and logs), values up to 64 KB (a PEM private key fits; a database dump does not), and as
 * many secrets per module and tenant as the manifest may declare (100; rows of names an older
 * version declared count too). Name pattern and count come from the manifest schema itself.
 */
import { manifestSchema } from '../../sdk/manifest';

export const SECRET_LIMITS = { valueBytes: 64 * 1024, perModule: manifestSchema.properties.secrets.maxItems } as const;
export const SECRET_NAME_PATTERN = manifestSchema.definitions.secret.properties.name.pattern;
