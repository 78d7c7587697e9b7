import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadModuleFromDir } from '../../core/kernel/modules/loaded-module';
import { packModule } from '../../sdk/package';
import { rawRequest } from '../rings/support';
import { startTestPlatform, type TestPlatform } from '../support/test-platform';

const oom = path.join(__dirname, 'fixtures', 'modules', 'oom');

/** The oom fixture as version `version`, asking for `memoryMb` (undefined: declaring none), in a folder of its own. */
function oomAsking(memoryMb: number | undefined, version: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mandi-greedy-'));
  cpSync(oom, dir, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(dir, 'module.json'), 'utf8'));
  writeFileSync(path.join(dir, 'module.json'), JSON.stringify({ ...manifest, version, limits: { ...manifest.limits, memory_mb: memoryMb } }));
  return dir;
}

describe('spec/DESIGN Sandbox: limits.memory_mb is capped by SANDBOX_MAX_MEMORY_MB (default 128)', () => {
  let tp: TestPlatform;
  let owner: Awaited<ReturnType<TestPlatform['install']>>;
  beforeAll(async () => {
    tp = await startTestPlatform();
    owner = await tp.install('acme');
  }, 120_000);
  afterAll(() => tp?.close());

  const publish = async (dir: string) => {
    const pkg = await packModule(dir, { outDir: mkdtempSync(path.join(os.tmpdir(), 'mandi-pkg-')) });
    return rawRequest(tp, 'POST', '/registry/packages', { token: owner.token, body: pkg.buffer });
  };

  it('publishing a package that asks for more is refused, naming the cap; at the cap it is accepted', async () => {
    const refused = await publish(oomAsking(512, '2.0.0'));
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'MODULE_MEMORY_OVER_CAP',
      message: expect.stringContaining('cap of 128 MB (SANDBOX_MAX_MEMORY_MB)'),
      details: { module: 'oom', version: '2.0.0', memory_mb: 512, max_memory_mb: 128 },
    });
    expect((await publish(oomAsking(128, '2.0.1'))).status).toBe(201);
  });

  it('registering a development module that asks for more is refused', async () => {
    const greedy = await loadModuleFromDir(oomAsking(129, '3.0.0'));
    expect(() => tp.platform.kernel.source.add(greedy)).toThrow(expect.objectContaining({ code: 'MODULE_MEMORY_OVER_CAP' }));
    expect(tp.platform.kernel.source.isLocal('oom')).toBe(false);
  });
});

describe('spec/DESIGN Sandbox: a cap below the default memory limit', () => {
  let tp: TestPlatform;
  beforeAll(async () => {
    tp = await startTestPlatform({ SANDBOX_MAX_MEMORY_MB: '64' });
  }, 120_000);
  afterAll(() => tp?.close());

  it('a module declaring no memory_mb is not refused (it runs at the cap); one declaring more than the cap is', async () => {
    const modest = await loadModuleFromDir(oomAsking(undefined, '4.0.0'));
    expect(modest.manifest.limits?.memory_mb).toBeUndefined();
    expect(() => tp.platform.kernel.source.add(modest)).not.toThrow();
    expect(tp.platform.kernel.source.isLocal('oom')).toBe(true);
    const greedy = await loadModuleFromDir(oomAsking(65, '4.0.1'));
    expect(() => tp.platform.kernel.source.add(greedy)).toThrow(expect.objectContaining({ code: 'MODULE_MEMORY_OVER_CAP' }));
  });
});
