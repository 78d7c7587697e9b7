/**
 * The module's secrets in the current tenant (API keys, webhook secrets), kept encrypted by the
 * host: the core operations secrets.set / get / hint / list / delete, typed. Declare each name in
 * the manifest's `secrets`; tenant admins set them with PUT /api/v1/modules/{alias}/secrets/{name}.
 *
 *   const apiKey = await secrets(ctx.host).get('api_key'); // null when the tenant has not set it
 *
 * Never log a value or put it in an error message or an operation's result. The types are the
 * contracts' (sdk/contracts/platform/secrets.ts), imported as types only so no schema reaches the bundle.
 */
import type { Static } from '@sinclair/typebox/type';
import type { CoreOutput, SecretHint as SecretHintSchema, secretsDelete, secretsGet, secretsHint, secretsList, secretsSet } from '../contracts/platform';
import type { Host } from './host';

/** What anyone may know of a secret: its last 4 characters (null for values under 12) and when it was set. */
export type SecretHint = Static<typeof SecretHintSchema>;

export interface Secrets {
  /** The plaintext, or null when unset. */
  get(name: string): Promise<string | null>;
  set(name: string, value: string): Promise<SecretHint>;
  hint(name: string): Promise<SecretHint | null>;
  list(): Promise<SecretHint[]>;
  /** Whether there was one to delete. */
  delete(name: string): Promise<boolean>;
}

export function secrets(host: Pick<Host, 'call'>): Secrets {
  return {
    get: async (name) => (await host.call<CoreOutput<typeof secretsGet>>('secrets.get', { name })).value,
    set: (name, value) => host.call<CoreOutput<typeof secretsSet>>('secrets.set', { name, value }),
    hint: async (name) => (await host.call<CoreOutput<typeof secretsHint>>('secrets.hint', { name })).secret,
    list: async () => (await host.call<CoreOutput<typeof secretsList>>('secrets.list', {})).secrets,
    delete: async (name) => (await host.call<CoreOutput<typeof secretsDelete>>('secrets.delete', { name })).deleted,
  };
}

/**
 * Moves values an earlier version of the module kept in clear in its own key/value model (`key`,
 * `value` columns) into its secrets, then deletes those rows. A module's SQL migrations cannot
 * reach the host, so the move happens in code, where the new version first reads its settings
 * (pass the rows it read). Safe to stop at any point: a value is stored as a secret before its row
 * goes, and a row whose secret exists already (set since, e.g. by a tenant admin) is only deleted.
 */
export async function moveIntoSecrets(host: Pick<Host, 'call' | 'db'>, model: string, rows: ReadonlyArray<{ key: string; value: string }>, names: readonly string[]): Promise<void> {
  const store = secrets(host);
  for (const row of rows) {
    if (!names.includes(row.key)) continue;
    if (row.value !== '' && (await store.hint(row.key)) === null) await store.set(row.key, row.value);
    await host.db.destroy(model, { where: { key: row.key } });
  }
}
