/**
 * The store of module secrets (DESIGN.md, Host capabilities for modules): per tenant, module and
 * name, in the central table module_secrets (why there: migrations/central/0030-module-secrets.ts).
 * Values are AES-256-GCM under the platform key's `module-secret` subkey, a fresh IV each, with
 * (tenant, module, name) as additional data: a ciphertext copied into another tenant's or module's
 * row does not decrypt there. Plaintext leaves only through `read`, which the bus operation
 * secrets.get calls for the module that owns the secret; everything else sees hints.
 */
import type { SecretHint } from '../../../sdk/runtime/secrets';
import type { AppKeys } from './app-key';
import type { Clock } from '../clock';
import type { CentralDb } from '../data/central-db';
import type { Logger } from '../logger';
import { secretErrors } from './errors';
import { SECRET_LIMITS } from './limits';

export const SECRET_PURPOSE = 'module-secret';


/** Where a secret lives: bound into its ciphertext. */
export const secretAad = (tenantId: string, module: string, name: string) => `${tenantId}\u0000${module}\u0000${name}`;

const HINT_MIN_LENGTH = 12;

export class ModuleSecrets {
  constructor(private readonly d: { central: CentralDb; keys: AppKeys; clock: Clock; logger: Logger }) {}

  async write(tenantId: string, module: string, name: string, value: string): Promise<SecretHint> {
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > SECRET_LIMITS.valueBytes) throw secretErrors.tooLarge(bytes);
    const { keys, central } = this.d;
    const chars = [...value];
    const row = {
      tenant_id: tenantId,
      module,
      name,
      ciphertext: await keys.encrypt(SECRET_PURPOSE, value, secretAad(tenantId, module, name)),
      key_id: keys.keyId,
      hint: chars.length >= HINT_MIN_LENGTH ? chars.slice(-4).join('') : null,
      set_at: new Date(this.d.clock.now()),
    };
    await central.sequelize.transaction(async (transaction) => {
      // One writer per (tenant, module) at a time, so concurrent writes cannot pass the count together.
      await central.sequelize.query('SELECT pg_advisory_xact_lock(hashtext($1))', { bind: [`module-secrets:${tenantId}:${module}`], transaction });
      const { ModuleSecret } = central.models;
      const exists = await ModuleSecret.count({ where: { tenant_id: tenantId, module, name }, transaction });
      if (!exists && (await ModuleSecret.count({ where: { tenant_id: tenantId, module }, transaction })) >= SECRET_LIMITS.perModule) {
        throw secretErrors.tooMany(module);
      }
      await ModuleSecret.upsert(row, { transaction });
    });
    return { name, hint: row.hint, set_at: row.set_at.toISOString() };
  }

  /** The plaintext, or null when unset. Only for the owning module (secret-operations.ts). */
  async read(tenantId: string, module: string, name: string): Promise<string | null> {
    const row = await this.d.central.models.ModuleSecret.findOne({ where: { tenant_id: tenantId, module, name } });
    if (!row) return null;
    try {
      return await this.d.keys.decrypt(SECRET_PURPOSE, row.ciphertext, secretAad(tenantId, module, name));
    } catch (err) {
      // The reason (tag mismatch, unknown key id) and where; never the value or the ciphertext.
      this.d.logger.error({ tenant: tenantId, module, secret: name, reason: (err as Error).message }, 'module secret could not be decrypted');
      throw secretErrors.unreadable(module, name);
    }
  }

  async hint(tenantId: string, module: string, name: string): Promise<SecretHint | null> {
    return (await this.list(tenantId, module, name))[0] ?? null;
  }

  async list(tenantId: string, module: string, name?: string): Promise<SecretHint[]> {
    const rows = await this.d.central.models.ModuleSecret.findAll({
      attributes: ['name', 'hint', 'set_at'],
      where: { tenant_id: tenantId, module, ...(name === undefined ? {} : { name }) },
      order: [['name', 'ASC']],
    });
    return rows.map((r) => ({ name: r.name, hint: r.hint, set_at: r.set_at.toISOString() }));
  }

  async remove(tenantId: string, module: string, name: string): Promise<boolean> {
    return (await this.d.central.models.ModuleSecret.destroy({ where: { tenant_id: tenantId, module, name } })) > 0;
  }
}
