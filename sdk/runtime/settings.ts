/**
 * The module's settings in the current tenant, kept by the host (docs/decisions/module-settings.md):
 * the core operations settings.get / settings.set, typed. Declare them in the manifest's `settings`
 * (a JSON schema of an object; `writeOnly: true` marks a secret string); tenant admins change them
 * with PUT/PATCH /api/v1/modules/{alias}/settings.
 *
 *   const SETTINGS = { type: 'object', properties: { base_url: { type: 'string', description: '…', default: 'https://x' } } } as const;
 *   const { base_url } = await settings<SettingsOf<typeof SETTINGS>>(ctx.host).get();
 *
 * The types are the contracts' (sdk/contracts/platform/settings.ts), imported as types only.
 */
import type { CoreOutput, settingsGet, settingsSet } from '../contracts/platform';
import type { Host } from './host';

type ValueOf<P> = P extends { enum: readonly (infer E)[] }
  ? E
  : P extends { type: 'string' }
    ? string
    : P extends { type: 'number' | 'integer' }
      ? number
      : P extends { type: 'boolean' }
        ? boolean
        : P extends { type: 'array' }
          ? unknown[]
          : P extends { type: 'object' }
            ? Record<string, unknown>
            : unknown;

/** The values of a settings schema declared `as const`: each its type, null when neither stored nor defaulted. */
export type SettingsOf<S extends { properties: Record<string, unknown> }> = { -readonly [K in keyof S['properties']]: ValueOf<S['properties'][K]> | null };

export interface Settings<S extends Record<string, unknown>> {
  /** Every declared setting: stored, else its default, else null; secrets in clear. */
  get(): Promise<S>;
  /** The names holding a value of their own (not a default). */
  stored(): Promise<Array<keyof S & string>>;
  /** Merges `values` into the stored ones (replace: true replaces them; secrets left out are kept); null removes one. */
  set(values: { [K in keyof S]?: S[K] | null }, options?: { replace?: boolean }): Promise<{ updated_at: string }>;
}

export function settings<S extends Record<string, unknown> = Record<string, unknown>>(host: Pick<Host, 'call'>): Settings<S> {
  const read = () => host.call<CoreOutput<typeof settingsGet>>('settings.get', {});
  return {
    get: async () => (await read()).values as S,
    stored: async () => (await read()).stored as Array<keyof S & string>,
    set: (values, options) => host.call<CoreOutput<typeof settingsSet>>('settings.set', { values, ...(options?.replace ? { replace: true } : {}) }),
  };
}

/**
 * Moves values an earlier version of the module kept in its own key/value model (`key`, `value`
 * columns) into its host settings, then deletes those rows; like moveIntoSecrets, the move happens
 * where the new version first reads its settings (pass the rows it read). Safe to stop at any point:
 * a value is stored before its row goes, and a row whose setting holds a value already (set since,
 * e.g. by a tenant admin) is only deleted. `parse` turns a row's text into the setting's type.
 */
export async function moveIntoSettings(
  host: Pick<Host, 'call' | 'db'>,
  model: string,
  rows: ReadonlyArray<{ key: string; value: string }>,
  names: readonly string[],
  parse: (key: string, value: string) => unknown = (_key, value) => value,
): Promise<void> {
  const legacy = rows.filter((r) => names.includes(r.key));
  if (legacy.length === 0) return;
  const store = settings(host);
  const stored = await store.stored();
  const values = Object.fromEntries(legacy.filter((r) => r.value !== '' && !stored.includes(r.key)).map((r) => [r.key, parse(r.key, r.value)]));
  if (Object.keys(values).length > 0) await store.set(values);
  for (const row of legacy) await host.db.destroy(model, { where: { key: row.key } });
}
