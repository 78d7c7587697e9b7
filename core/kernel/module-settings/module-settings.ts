/**
 * The store of module settings (docs/decisions/module-settings.md): per tenant and module, the
 * values of the manifest's `settings` schema. Non-secret values are one JSON document in the
 * tenant's table module_settings (at most SETTINGS_DOCUMENT_BYTES); a secret (`writeOnly: true`)
 * is the module secret "settings:<name>" (core/kernel/secrets), so it is encrypted and rotated with
 * the others. Plaintext of a secret leaves only through `values`, which settings.get calls for the
 * module that owns it; everything else sees `{set: boolean}` (`view`).
 */
import { QueryTypes } from 'sequelize';
import { SETTING_SECRET_PREFIX, SETTINGS_DOCUMENT_BYTES } from '../../../sdk/contracts/platform';
import type { SettingsSchema } from '../../../sdk/manifest';
import { SchemaValidators } from '../bus/schema-validators';
import type { Clock } from '../clock';
import type { TenantDatabases } from '../data/tenant-databases';
import { ValidationError, type FieldErrors } from '../errors';
import type { ModuleSecrets } from '../secrets/module-secrets';
import { settingsErrors } from './errors';

type Values = Record<string, unknown>;

const secretName = (prop: string) => `${SETTING_SECRET_PREFIX}${prop}`;

/** Own keys only: a hostile write's "constructor" or "__proto__" is no declared setting. */
const declares = (schema: SettingsSchema, prop: string) => Object.hasOwn(schema.properties, prop);
const isSecret = (schema: SettingsSchema, prop: string) => declares(schema, prop) && schema.properties[prop].writeOnly === true;
/** A stored value, never an inherited member: "constructor" is a name a setting may have. */
const own = (values: Values, prop: string): unknown => (Object.hasOwn(values, prop) ? values[prop] : undefined);
/** Objects keyed by setting names inherit nothing, for the same reason. */
const bare = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

/** A write: merge into the stored values (PATCH, settings.set) or replace them (PUT, replace: true). */
export type SettingsWrite = { values: Values; replace: boolean };

export class ModuleSettings {
  private readonly validators = new SchemaValidators();
  /** Each manifest's settings schema as a write is checked: declared names only, no `required` (checked on the result). */
  private readonly writeSchemas = new WeakMap<SettingsSchema, object>();

  constructor(private readonly d: { tenantDbs: TenantDatabases; secrets: ModuleSecrets; clock: Clock }) {}

  /** Every declared setting: stored, else its default, else null; secrets in clear. Only for the owning module. */
  async values(tenantId: string, module: string, schema: SettingsSchema): Promise<{ values: Values; stored: string[] }> {
    const { values } = await this.stored(tenantId, module);
    const out = bare<unknown>();
    const stored: string[] = [];
    for (const [prop, def] of Object.entries(schema.properties)) {
      out[prop] = def.writeOnly ? await this.d.secrets.read(tenantId, module, secretName(prop)) : (own(values, prop) ?? def.default ?? null);
      if (def.writeOnly ? out[prop] !== null : own(values, prop) !== undefined) stored.push(prop);
    }
    return { values: out, stored };
  }

  /** What a tenant admin sees: like `values`, with each secret as {set}. */
  async view(tenantId: string, module: string, schema: SettingsSchema): Promise<{ values: Values; updated_at: string | null }> {
    const { values, updated_at } = await this.stored(tenantId, module);
    const set = await this.secretsSet(tenantId, module);
    const out = bare<unknown>();
    for (const [prop, def] of Object.entries(schema.properties)) out[prop] = def.writeOnly ? { set: set.has(prop) } : (own(values, prop) ?? def.default ?? null);
    return { values: out, updated_at };
  }

  /**
   * Validates and stores a write; answers the names it changed. A null value removes a setting (its
   * default shows again). Secrets absent from a replace are kept: no answer ever carries them, so a
   * client could not send them back. Nothing is stored unless the whole write is valid.
   */
  async write(tenantId: string, module: string, schema: SettingsSchema, write: SettingsWrite): Promise<{ changed: string[]; updated_at: string }> {
    const given = Object.entries(write.values);
    // Without a prototype: ajv reads `properties` as `data[name] !== undefined`, and an inherited "constructor" would be checked.
    const present = Object.assign(bare<unknown>(), Object.fromEntries(given.filter(([, v]) => v !== null)));
    const errors: FieldErrors = Object.assign(bare<string[]>(), this.validators.validate(this.writeSchema(schema), present));

    const secretsSet = await this.secretsSet(tenantId, module);
    const now = new Date(this.d.clock.now());
    return this.d.tenantDbs.with(tenantId, (db) =>
      db.transaction(async (transaction) => {
        const [row] = await db.query<{ values: Values }>('SELECT "values" FROM module_settings WHERE module = $1 FOR UPDATE', { bind: [module], type: QueryTypes.SELECT, transaction });
        const next = bare<unknown>();
        // Values of settings no longer declared (an older version's) go with the first write.
        for (const [prop, v] of Object.entries(write.replace ? {} : (row?.values ?? {}))) if (declares(schema, prop) && !isSecret(schema, prop)) next[prop] = v;
        for (const [prop, v] of given) {
          if (isSecret(schema, prop) || !declares(schema, prop)) continue;
          if (v === null) delete next[prop];
          else next[prop] = v;
        }
        for (const prop of schema.required ?? []) {
          const has = isSecret(schema, prop) ? (Object.hasOwn(write.values, prop) ? write.values[prop] !== null : secretsSet.has(prop)) : own(next, prop) !== undefined || (declares(schema, prop) && schema.properties[prop].default !== undefined);
          if (!has) (errors[prop] ??= []).push(`The ${prop} field is required.`);
        }
        if (Object.keys(errors).length > 0) throw new ValidationError(errors);
        const json = JSON.stringify(next);
        const bytes = Buffer.byteLength(json, 'utf8');
        if (bytes > SETTINGS_DOCUMENT_BYTES) throw settingsErrors.tooLarge(bytes);

        for (const [prop, v] of given) {
          if (!isSecret(schema, prop)) continue;
          if (v === null) await this.d.secrets.remove(tenantId, module, secretName(prop));
          else await this.d.secrets.write(tenantId, module, secretName(prop), v as string);
        }
        await db.query(
          `INSERT INTO module_settings (module, "values", updated_at) VALUES ($1, $2::jsonb, $3)
           ON CONFLICT (module) DO UPDATE SET "values" = EXCLUDED."values", updated_at = EXCLUDED.updated_at`,
          { bind: [module, json, now], transaction },
        );
        return { changed: given.map(([prop]) => prop), updated_at: now.toISOString() };
      }),
    );
  }

  private async stored(tenantId: string, module: string): Promise<{ values: Values; updated_at: string | null }> {
    const [row] = await this.d.tenantDbs.with(tenantId, (db) =>
      db.query<{ values: Values; updated_at: Date }>('SELECT "values", updated_at FROM module_settings WHERE module = $1', { bind: [module], type: QueryTypes.SELECT }),
    );
    return { values: row?.values ?? {}, updated_at: row ? new Date(row.updated_at).toISOString() : null };
  }

  /** The secret settings that have a value. */
  private async secretsSet(tenantId: string, module: string): Promise<Set<string>> {
    const hints = await this.d.secrets.list(tenantId, module);
    return new Set(hints.filter((h) => h.name.startsWith(SETTING_SECRET_PREFIX)).map((h) => h.name.slice(SETTING_SECRET_PREFIX.length)));
  }

  private writeSchema(schema: SettingsSchema): object {
    let s = this.writeSchemas.get(schema);
    if (!s) this.writeSchemas.set(schema, (s = { type: 'object', additionalProperties: false, properties: schema.properties }));
    return s;
  }
}
