/**
 * Every catalog route answers errors as {error, code, details} (spec 3, Errors) and is limited per
 * user (spec 3, Limits: reseller reads 100 a minute, writes 30 a minute).
 */
export const READ = { error_shape: 'reseller', rate_limit: '100/60' } as const;
export const WRITE = { error_shape: 'reseller', rate_limit: '30/60' } as const;
