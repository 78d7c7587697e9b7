/**
 * One owner per public prefix and one row per public token, platform-wide (DESIGN.md, wave 3:
 * ownership is platform-wide). `public_prefix_owners` records which alias owns each http.public
 * prefix, filled from the packages published so far (the first to publish a prefix keeps it; a later
 * overlapping one gets none). Public tokens become unique on their hash alone: of rows sharing a hash
 * (the same token registered by several modules), the first registered stays.
 */
import { DataTypes, literal, QueryTypes, type QueryInterface } from 'sequelize';
import { prefixesOverlap } from '../../../../../sdk/manifest/route-overlap';

export async function up({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.createTable('public_prefix_owners', {
    prefix: { type: DataTypes.STRING(200), primaryKey: true },
    alias: { type: DataTypes.STRING(50), allowNull: false },
    claimed_at: { type: DataTypes.DATE, allowNull: false, defaultValue: literal('CURRENT_TIMESTAMP') },
  });
  const published = await qi.sequelize.query<{ alias: string; prefix: string }>(
    `SELECT alias, lower(manifest->'http'->'public'->>'prefix') AS prefix FROM registry_packages
      WHERE manifest->'http'->'public'->>'prefix' IS NOT NULL ORDER BY published_at, id`,
    { type: QueryTypes.SELECT },
  );
  const owners: Array<{ prefix: string; alias: string }> = [];
  for (const p of published) {
    if (!owners.some((o) => o.prefix === p.prefix || (o.alias !== p.alias && prefixesOverlap(o.prefix, p.prefix)))) owners.push(p);
  }
  if (owners.length) await qi.bulkInsert('public_prefix_owners', owners);

  await qi.sequelize.query('DELETE FROM module_public_tokens t USING module_public_tokens first WHERE t.token_hash = first.token_hash AND t.id > first.id');
  await qi.removeIndex('module_public_tokens', 'module_public_tokens_alias_token');
  await qi.removeIndex('module_public_tokens', 'module_public_tokens_token');
  await qi.addIndex('module_public_tokens', ['token_hash'], { unique: true, name: 'module_public_tokens_token' });
}

export async function down({ context: qi }: { context: QueryInterface }): Promise<void> {
  await qi.removeIndex('module_public_tokens', 'module_public_tokens_token');
  await qi.addIndex('module_public_tokens', ['token_hash'], { name: 'module_public_tokens_token' });
  await qi.addIndex('module_public_tokens', ['alias', 'token_hash'], { unique: true, name: 'module_public_tokens_alias_token' });
  await qi.dropTable('public_prefix_owners');
}
