/**
 * Which module alias owns each public prefix (http.public) on the whole platform (DESIGN.md, wave 3:
 * a public prefix belongs to one module across every ring and tenant). Tokens under a prefix are
 * public (a widget token sits in a shop's embed code): a second alias serving the same prefix in some
 * other tenant or ring could be handed requests meant for the first. The first alias to claim a
 * prefix (at publish, or at install for a development module from MODULE_PATHS) keeps it; every
 * later claim by another alias of it, or of a prefix overlapping it, is refused, and so is a prefix
 * the platform serves itself. Ownership is never released, so a recorded owner is cached for good.
 */
import type { Manifest } from '../../../sdk/manifest';
import { prefixesOverlap, publicPrefixProblem } from '../../../sdk/manifest/route-overlap';
import type { CentralDb } from '../data/central-db';
import { moduleErrors } from './errors';

export class PublicPrefixOwners {
  private readonly owners = new Map<string, string>();

  constructor(private readonly central: CentralDb) {}

  /** Records the module as the owner of its public prefix, unless the prefix is the platform's or another alias owns one it overlaps. */
  async claim(manifest: Pick<Manifest, 'name' | 'http'>): Promise<void> {
    const declared = manifest.http?.public?.prefix;
    if (!declared) return;
    const prefix = declared.toLowerCase();
    const alias = manifest.name;
    if ((await this.ownerOf(prefix)) === alias) return;
    const reserved = publicPrefixProblem(prefix);
    if (reserved) {
      throw moduleErrors.publicPrefixReserved(alias, prefix, reserved);
    }
    const { PublicPrefixOwner } = this.central.models;
    await this.central.sequelize.transaction(async (transaction) => {
      // One claim at a time on the platform: two overlapping prefixes must not both pass the check.
      await this.central.sequelize.query("SELECT pg_advisory_xact_lock(hashtext('public_prefix_owners'))", { transaction });
      const rows = await PublicPrefixOwner.findAll({ transaction });
      const taken = rows.find((r) => r.alias !== alias && prefixesOverlap(r.prefix, prefix));
      if (taken) {
        throw moduleErrors.publicPrefixTaken(alias, prefix, taken.alias, taken.prefix);
      }
      await PublicPrefixOwner.findOrCreate({ where: { prefix }, defaults: { prefix, alias }, transaction });
    });
  }

  /** Whether `alias` is the recorded owner of `prefix`. */
  async owns(alias: string, prefix: string): Promise<boolean> {
    return (await this.ownerOf(prefix.toLowerCase())) === alias;
  }

  private async ownerOf(prefix: string): Promise<string | undefined> {
    let alias = this.owners.get(prefix);
    if (alias === undefined) {
      alias = (await this.central.models.PublicPrefixOwner.findByPk(prefix))?.alias;
      if (alias !== undefined) this.owners.set(prefix, alias);
    }
    return alias;
  }
}
