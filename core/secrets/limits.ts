/**
 * What a module may keep: names as the manifest's `secrets[].name` pattern allows (also a safe key
 * in URLs and logs), values up to 64 KB (a PEM private key fits; a database dump does not), and 100
 * secrets per module and tenant (the manifest's `secrets` holds at most as many; rows of names an
 * older version declared count too).
 */
export const SECRET_LIMITS = { valueBytes: 64 * 1024, perModule: 100 } as const;
export const SECRET_NAME_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
