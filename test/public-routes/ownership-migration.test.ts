/**
 * Central migration 0036 (DESIGN.md, wave 3: ownership is platform-wide) on a database that holds
 * what the platform wrote before it: prefixes get the owner that published them first, and tokens
 * registered by several modules keep their first registration only, then one row per hash for good.
 */
import { QueryTypes, UniqueConstraintError } from 'sequelize';
import * as migration from '../../core/kernel/data/migrations/central/0036-public-ownership';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

let tp: TestPlatform;
let tenantId: string;
beforeAll(async () => {
  tp = await startTestPlatform();
  tenantId = (await tp.install('acme')).tenantId;
}, 120_000);
afterAll(() => tp.close());

test('0036 names the first publisher of each prefix its owner and keeps the first registration of a token shared by modules', async () => {
  const { sequelize } = tp.platform.central;
  const qi = sequelize.getQueryInterface();
  await migration.down({ context: qi });
  const pkg = (alias: string, version: string, prefix: string, at: string) => ({
    alias, version, sha256: 'a'.repeat(64), size: 1, published_by: 'user:1', published_at: new Date(at),
    manifest: JSON.stringify({ name: alias, version, http: { public: { prefix, routes: [] } } }),
  });
  await qi.bulkInsert('registry_packages', [
    pkg('squatter', '1.0.0', 'widget/v2', '2026-01-02T00:00:00Z'),
    pkg('chat', '1.0.0', 'widget', '2026-01-01T00:00:00Z'),
    pkg('chat', '1.1.0', 'Widget', '2026-01-03T00:00:00Z'),
    pkg('hooks', '1.0.0', 'hooks', '2026-01-04T00:00:00Z'),
  ]);
  const token = (alias: string, hash: string) => ({ alias, token_hash: hash, tenant_id: tenantId, label: alias });
  await qi.bulkInsert('module_public_tokens', [token('chat', 'h1'), token('squatter', 'h1'), token('chat', 'h2')]);

  await migration.up({ context: qi });
  const owners = await sequelize.query('SELECT prefix, alias FROM public_prefix_owners ORDER BY prefix', { type: QueryTypes.SELECT });
  expect(owners).toEqual([{ prefix: 'hooks', alias: 'hooks' }, { prefix: 'widget', alias: 'chat' }]);
  const tokens = await sequelize.query('SELECT alias, token_hash FROM module_public_tokens ORDER BY token_hash', { type: QueryTypes.SELECT });
  expect(tokens).toEqual([{ alias: 'chat', token_hash: 'h1' }, { alias: 'chat', token_hash: 'h2' }]);
  await expect(qi.bulkInsert('module_public_tokens', [token('hooks', 'h2')])).rejects.toBeInstanceOf(UniqueConstraintError);
});
