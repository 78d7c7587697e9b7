/** The manifest's `jobs` section: checked at build, publish and registration like every other section. */
import { declaredManifest } from '../../sdk/build/declared-manifest';
import { validateManifest, type ManifestIssue } from '../../sdk/manifest';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- manifests of any shape, valid or not
const withJobs = (jobs: unknown, limits?: unknown): Record<string, any> => ({
  name: 'ledger',
  version: '1.0.0',
  compatibility: { platform: '^2.0.0' },
  api: { provides: [{ name: 'ledger.sweep', description: 'Sweeps due remittances.', graphql_expose: false, ai_tool: false }] },
  jobs,
  ...(limits ? { limits } : {}),
});

function errorsOf(value: unknown): ManifestIssue[] {
  const result = validateManifest(value);
  if (result.ok) throw new Error('expected the manifest to be refused');
  return result.errors;
}

describe('DESIGN Manifest: the jobs section is declared, checked, and refused with what to fix', () => {
  test('a job running one of the module own operations, with capped attempts, backoff and timeout, is valid', () => {
    const result = validateManifest(
      withJobs({ sweep: { operation: 'ledger.sweep', attempts: 5, backoff: { type: 'exponential', delay_seconds: 30 }, timeout_seconds: 20, concurrency: 2 } }, { timeout_ms: 20000 }),
    );
    expect(result).toMatchObject({ ok: true });
  });

  test("another module's operation, an unknown one, limits beyond the caps and a timeout beyond the call limit are refused", () => {
    const errors = errorsOf(
      withJobs({
        steal: { operation: 'orders.delete' },
        ghost: { operation: 'ledger.nothing' },
        greedy: { operation: 'ledger.sweep', attempts: 1000, backoff: { type: 'linear', delay_seconds: -1 }, concurrency: 50 },
        long: { operation: 'ledger.sweep', timeout_seconds: 30 },
        'Bad Name': { operation: 'ledger.sweep' },
      }),
    );
    const at = (pointer: string) => errors.filter((e) => e.pointer === pointer).map((e) => e.message).join(' | ');
    expect(at('/jobs/steal/operation')).toMatch(/"orders.delete" is not in api.provides; a job runs one of the module's own operations/);
    expect(at('/jobs/ghost/operation')).toMatch(/not in api.provides/);
    expect(at('/jobs/greedy/attempts')).toMatch(/10/);
    expect(at('/jobs/greedy/concurrency')).toMatch(/4/);
    expect(errors.some((e) => e.pointer.startsWith('/jobs/greedy/backoff'))).toBe(true);
    expect(at('/jobs/long/timeout_seconds')).toMatch(/longer than one call into the module may run \(limits.timeout_ms: 5000\); raise limits.timeout_ms or lower timeout_seconds/);
    expect(errors.some((e) => e.pointer.startsWith('/jobs') && /job name/.test(e.message))).toBe(true);
  });

  test('the TypeScript declaration carries jobs into module.json, in the manifest order', () => {
    const manifest = declaredManifest({
      name: 'ledger',
      version: '1.0.0',
      operations: {},
      limits: { timeout_ms: 5000 },
      jobs: { sweep: { operation: 'ledger.sweep', attempts: 2 } },
      schedules: [],
    }) as Record<string, unknown>;
    expect(manifest.jobs).toEqual({ sweep: { operation: 'ledger.sweep', attempts: 2 } });
    expect(Object.keys(manifest)).toEqual(['name', 'version', 'api', 'schedules', 'jobs', 'limits']);
  });
});
