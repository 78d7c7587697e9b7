/**
 * What promotion and ring rollback check before any tenant moves (issue 4 item 4), each reason a
 * sentence: the platform range must include this core; the dependencies of every module of the
 * resulting release must be met inside that ring, and no two of its modules may serve one route; a
 * version that does not bump the major may not break callers; and the older version's migrations
 * must be the start of the newer one's, or tenants could not be moved between them. Publish holds a
 * package's routes against the rings' releases too (publishRefusals).
 */
import { checkDependencies, checkPlatform, PLATFORM_VERSION, type CompatibilityProblem, type Manifest } from '../sdk/manifest';
import type { LoadedModule } from '../core/kernel/modules/loaded-module';
import { breakingChanges, isMajorBump } from './breaking';
import type { Refuse } from './errors';
import type { ReleaseModules } from './ring-models';

export interface Refusal {
  kind: 'platform' | 'dependencies' | 'routes' | 'breaking' | 'migrations' | 'tenant' | 'installed';
  message: string;
}

export type ManifestOf = (alias: string, version: string) => Promise<Manifest>;

/** Problems the release would have with `alias` at `version` (null: without it) that it does not have now. */
export async function newDependencyProblems(release: ReleaseModules, alias: string, version: string | null, manifestOf: ManifestOf): Promise<Refusal[]> {
  return newReleaseProblems(release, withChange(release, alias, version), manifestOf);
}

/** Problems `after` has that `before` did not (a release's own old problems are not a new release's fault). */
export async function newReleaseProblems(before: ReleaseModules, after: ReleaseModules, manifestOf: ManifestOf): Promise<Refusal[]> {
  const manifests = (release: ReleaseModules) => Promise.all(Object.entries(release).map(([a, v]) => manifestOf(a, v)));
  const known = new Set(checkDependencies(await manifests(before)).map((p) => p.message));
  return checkDependencies(await manifests(after))
    .filter((p) => p.kind !== 'duplicate' && !known.has(p.message))
    .map(setRefusal);
}

/** A problem of a module set as a refusal: a route overlap, or a dependency (or event prefix) not met. */
export function setRefusal(p: CompatibilityProblem): Refusal {
  return { kind: p.kind === 'route' ? 'routes' : 'dependencies', message: p.message };
}

/**
 * What publishing `candidate` is refused for: routes overlapping another module's in a ring's current
 * release. Such a version could never be promoted beside that module; refusing it at publish says so
 * before anyone builds on it. Overlaps among the released modules themselves are not its fault.
 */
export async function publishRefusals(
  candidate: Manifest,
  releases: ReadonlyArray<{ ring: string; modules: ReleaseModules }>,
  manifestOf: ManifestOf,
): Promise<Refusal[]> {
  const out: Refusal[] = [];
  for (const { ring, modules } of releases) {
    const others = await Promise.all(Object.entries(withChange(modules, candidate.name, null)).map(([a, v]) => manifestOf(a, v)));
    for (const p of checkDependencies([...others, candidate])) {
      if (p.kind === 'route' && p.module === candidate.name) out.push({ kind: 'routes', message: `in ring ${ring}: ${p.message}` });
    }
  }
  return out;
}

/**
 * The check a promotion or ring rollback hands to RingService.recordRelease: another module's change
 * may have been recorded since the request was planned, so the dependencies are checked again against
 * the release current under the lock; new problems refuse through `refuse`.
 */
export function refuseNewProblems(manifestOf: ManifestOf, refuse: Refuse, summary: string) {
  return async (current: ReleaseModules, next: ReleaseModules): Promise<void> => {
    const problems = await newReleaseProblems(current, next, manifestOf);
    if (problems.length) throw refuse(summary, problems);
  };
}

/** The release with `alias` at `version`, or without it when `version` is null. */
export function withChange(release: ReleaseModules, alias: string, version: string | null): ReleaseModules {
  const { [alias]: _old, ...rest } = release;
  return version === null ? rest : { ...rest, [alias]: version };
}

/** Why tenants could not move between the two versions' data, if they could not. */
export function migrationProblem(older: LoadedModule, newer: LoadedModule): Refusal | undefined {
  const a = (older.manifest.data?.migrations ?? []).map((m) => m.id);
  const b = (newer.manifest.data?.migrations ?? []).map((m) => m.id);
  const prefix = a.every((id, i) => b[i] === id);
  if (prefix) return undefined;
  return {
    kind: 'migrations',
    message: `the migrations of ${newer.key} (${b.join(', ') || 'none'}) do not continue those of ${older.key} (${a.join(', ') || 'none'}); released migrations must stay and new ones be appended`,
  };
}

export async function promotionRefusals(args: {
  candidate: LoadedModule;
  /** The version the target ring releases now, if any. */
  current: LoadedModule | undefined;
  ring: string;
  release: ReleaseModules;
  manifestOf: ManifestOf;
}): Promise<Refusal[]> {
  const { candidate, current, ring } = args;
  const out: Refusal[] = [];
  const platform = checkPlatform(candidate.manifest, PLATFORM_VERSION);
  if (platform) out.push({ kind: 'platform', message: platform.message });
  for (const p of await newDependencyProblems(args.release, candidate.alias, candidate.manifest.version, args.manifestOf)) {
    out.push({ ...p, message: `in ring ${ring}: ${p.message}` });
  }
  if (current) {
    if (!isMajorBump(current.manifest.version, candidate.manifest.version)) {
      for (const change of await breakingChanges(current, candidate)) {
        out.push({
          kind: 'breaking',
          message: `${change} (from ${current.key}, which ring ${ring} releases); a breaking change needs a major version bump`,
        });
      }
    }
    const migrations = migrationProblem(current, candidate);
    if (migrations) out.push(migrations);
  }
  return out;
}
