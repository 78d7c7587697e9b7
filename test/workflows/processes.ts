/**
 * Real platform processes for the workflow engine's restart and kill tests (spec 2, Execution):
 * nodes sharing one central database and data folder, with `workflows` and its code evaluator on
 * MODULE_PATHS. Registers the suite's hooks: the modules built before, the processes stopped and the
 * databases dropped after (the tenant's once a test names it in `made.tenantId`).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dropDatabase } from '../../core/kernel/data/pg-admin';
import { tenantDbName } from '../../core/kernel/data/tenant-databases';
import { buildModule } from '../../sdk/build/build-module';
import { platformProcessEnv, stopPlatformProcesses, type PlatformProcess } from '../support/platform-process';
import { testServerUrl } from '../support/test-platform';
import { WORKFLOWS_CODE_DIR, WORKFLOWS_DIR } from './support';

export function workflowProcesses(extraEnv: Record<string, string>) {
  const centralDb = `mandi_t_${randomBytes(5).toString('hex')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mandi-wf-'));
  const nodes: PlatformProcess[] = [];
  const made: { tenantId?: string } = {};
  const env = (port: number) => platformProcessEnv({ port, centralDb, dataDir, modulePaths: [WORKFLOWS_CODE_DIR, WORKFLOWS_DIR] }, extraEnv);

  beforeAll(async () => {
    await buildModule(WORKFLOWS_CODE_DIR);
    await buildModule(WORKFLOWS_DIR);
  }, 60_000);

  afterAll(async () => {
    await stopPlatformProcesses(nodes);
    if (made.tenantId) await dropDatabase(testServerUrl(), tenantDbName(made.tenantId));
    await dropDatabase(testServerUrl(), centralDb);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  return { env, nodes, made, centralDb };
}
