/**
 * Whether modules fit the core and each other: the platform range (spec 1, Versioning 2), dependency
 * ranges against what is installed, dependency cycles, and the `api.consumes` patterns the bus checks.
 * Every refusal says what to install instead.
 */
import { eventNamespaces } from './event-namespaces';
import semver from 'semver';
import type { HttpRoute, Manifest } from './manifest.types';
import { channelPatternsOverlap } from './channel-patterns';
import { prefixesOverlap, routesOverlap } from './route-overlap';

/** The platform release this core implements; module `compatibility.platform` ranges are checked against it. */
export const PLATFORM_VERSION = '2.0.0';

export type CompatibilityProblemKind = 'platform' | 'missing-dependency' | 'dependency-version' | 'cycle' | 'duplicate' | 'event-namespace' | 'route' | 'realtime-channel';

export interface CompatibilityProblem {
  kind: CompatibilityProblemKind;
  /** Alias of the module that cannot be loaded as is (for a cycle, its first member). */
  module: string;
  message: string;
  /** For cycles: the path, first alias repeated at the end, e.g. ["a", "b", "a"]. */
  cycle?: string[];
}

type Identity = Pick<Manifest, 'name' | 'version'>;

const label = (m: Identity) => `${m.name}@${m.version}`;

/** null when the module runs on `platformVersion`; otherwise why not and what to install instead. */
export function checkPlatform(
  manifest: Pick<Manifest, 'name' | 'version' | 'compatibility'>,
  platformVersion: string = PLATFORM_VERSION,
): CompatibilityProblem | null {
  const range = manifest.compatibility?.platform;
  const line = `${semver.major(platformVersion)}.x`;
  if (typeof range !== 'string' || semver.validRange(range) === null) {
    return {
      kind: 'platform',
      module: manifest.name,
      message: `module ${label(manifest)} declares no valid compatibility.platform range (found ${JSON.stringify(range)}); set it to the platform releases it supports, e.g. "^${line.replace('.x', '.0.0')}"`,
    };
  }
  if (semver.satisfies(platformVersion, range, { includePrerelease: true })) return null;
  return {
    kind: 'platform',
    module: manifest.name,
    message: `module ${label(manifest)} requires platform ${range} but this core is ${platformVersion}; install a release of the module built for platform ${line}`,
  };
}

type SetMember = Pick<Manifest, 'name' | 'version' | 'dependencies' | 'events' | 'http' | 'realtime'>;

/**
 * Problems of a set of modules installed together (one ring's release): a dependency not installed,
 * installed at a version outside the range, an alias listed twice, a dependency cycle, an
 * events.namespace that is another module's alias or namespace (its events could be forged), or a
 * route of one module that could take requests meant for another's (their bodies could be read),
 * including a public prefix (http.public) another module owns, or a realtime channel pattern of one
 * module that could match another's channels (it could broadcast to, or grant visitors, the other's
 * sockets).
 */
export function checkDependencies(manifests: readonly SetMember[]): CompatibilityProblem[] {
  const problems: CompatibilityProblem[] = [];
  const byAlias = new Map<string, SetMember>();
  for (const m of manifests) {
    const earlier = byAlias.get(m.name);
    if (earlier) {
      problems.push({
        kind: 'duplicate',
        module: m.name,
        message: `module ${m.name} is listed twice (${earlier.version} and ${m.version}); install one version of each module`,
      });
      continue;
    }
    byAlias.set(m.name, m);
  }

  for (const m of byAlias.values()) {
    for (const [alias, range] of Object.entries(m.dependencies ?? {})) {
      const installed = byAlias.get(alias);
      if (!installed) {
        problems.push({
          kind: 'missing-dependency',
          module: m.name,
          message: `module ${label(m)} depends on ${alias} ${range}, but ${alias} is not installed; install ${alias} at a version matching ${range}`,
        });
      } else if (!semver.satisfies(installed.version, range, { includePrerelease: true })) {
        problems.push({
          kind: 'dependency-version',
          module: m.name,
          message: `module ${label(m)} depends on ${alias} ${range}, but ${label(installed)} is installed; install ${alias} at a version matching ${range}, or a release of ${m.name} built for ${label(installed)}`,
        });
      }
    }
  }

  problems.push(...namespaceClashes([...byAlias.values()]));
  problems.push(...routeClashes([...byAlias.values()]));
  problems.push(...channelClashes([...byAlias.values()]));
  problems.push(...publicPrefixClashes([...byAlias.values()]));

  for (const cycle of findCycles(byAlias)) {
    problems.push({
      kind: 'cycle',
      module: cycle[0],
      cycle,
      message: `dependency cycle ${cycle.join(' -> ')}: modules cannot depend on each other in a circle; remove one of these dependencies`,
    });
  }
  return problems;
}

/** Event prefixes claimed twice: a namespace equal to another module's alias or namespace. */
function namespaceClashes(members: readonly SetMember[]): CompatibilityProblem[] {
  const owner = new Map<string, string>(members.map((m) => [m.name, m.name]));
  const problems: CompatibilityProblem[] = [];
  for (const m of members) {
    for (const ns of eventNamespaces(m.events?.namespace)) {
      if (ns === m.name) continue;
      const taken = owner.get(ns);
      if (taken) {
        problems.push({
          kind: 'event-namespace',
          module: m.name,
          message: `module ${label(m)} publishes events as "${ns}.*", but that prefix belongs to module ${taken}; only one installed module may publish under a name`,
        });
      } else {
        owner.set(ns, m.name);
      }
    }
  }
  return problems;
}

/** Routes of two modules that could match one request; reported on the later module of the set. */
function routeClashes(members: readonly SetMember[]): CompatibilityProblem[] {
  const problems: CompatibilityProblem[] = [];
  const seen: Array<{ member: SetMember; route: HttpRoute }> = [];
  for (const m of members) {
    const own = m.http?.routes ?? [];
    for (const route of own) {
      const taken = seen.find((s) => routesOverlap(s.route, route));
      if (taken) {
        problems.push({
          kind: 'route',
          module: m.name,
          message: `module ${label(m)} declares ${route.method} ${route.path}, which overlaps ${taken.route.method} ${taken.route.path} of module ${label(taken.member)}: one request could reach either; only one installed module may serve a route`,
        });
      }
    }
    for (const route of own) seen.push({ member: m, route });
  }
  return problems;
}

/** Realtime channel patterns of two modules that could match one channel; reported on the later module. */
function channelClashes(members: readonly SetMember[]): CompatibilityProblem[] {
  const problems: CompatibilityProblem[] = [];
  const seen: Array<{ member: SetMember; pattern: string }> = [];
  for (const m of members) {
    const own = (m.realtime?.channels ?? []).map((c) => c.pattern);
    for (const pattern of own) {
      const taken = seen.find((s) => channelPatternsOverlap(s.pattern, pattern));
      if (taken) {
        problems.push({
          kind: 'realtime-channel',
          module: m.name,
          message: `module ${label(m)} declares the realtime channels "${pattern}", which overlap "${taken.pattern}" of module ${label(taken.member)}: one channel could belong to either; only one installed module may own a channel`,
        });
      }
    }
    for (const pattern of own) seen.push({ member: m, pattern });
  }
  return problems;
}

/**
 * Public prefixes (http.public) two modules would share: /api/widget/... must reach one module only,
 * or one could be handed the tokens, bodies and signatures meant for another. Reported as route
 * clashes, so install, promotion and publish refuse them as they refuse overlapping routes.
 */
function publicPrefixClashes(members: readonly SetMember[]): CompatibilityProblem[] {
  const problems: CompatibilityProblem[] = [];
  const seen: Array<{ member: SetMember; prefix: string }> = [];
  for (const m of members) {
    const prefix = m.http?.public?.prefix;
    if (!prefix) continue;
    const taken = seen.find((s) => prefixesOverlap(s.prefix, prefix));
    if (taken) {
      problems.push({
        kind: 'route',
        module: m.name,
        message: `module ${label(m)} serves public routes under /api/${prefix}, which overlaps /api/${taken.prefix} of module ${label(taken.member)}: only one installed module may own a public prefix; choose another prefix`,
      });
    } else seen.push({ member: m, prefix });
  }
  return problems;
}

/** One path per cycle among installed modules, each rotated to start at its smallest alias. */
function findCycles(byAlias: ReadonlyMap<string, Pick<Manifest, 'dependencies'>>): string[][] {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const found = new Map<string, string[]>();

  const visit = (alias: string) => {
    state.set(alias, 'visiting');
    stack.push(alias);
    const deps = Object.keys(byAlias.get(alias)?.dependencies ?? {}).sort();
    for (const dep of deps) {
      if (!byAlias.has(dep)) continue;
      if (state.get(dep) === 'visiting') {
        const loop = stack.slice(stack.indexOf(dep));
        const start = loop.indexOf([...loop].sort()[0]);
        const rotated = [...loop.slice(start), ...loop.slice(0, start)];
        found.set(rotated.join('>'), [...rotated, rotated[0]]);
      } else if (!state.has(dep)) {
        visit(dep);
      }
    }
    stack.pop();
    state.set(alias, 'done');
  };

  for (const alias of [...byAlias.keys()].sort()) if (!state.has(alias)) visit(alias);
  return [...found.values()];
}

/**
 * Whether `op` is covered by an `api.consumes` list: an exact name ("orders.get") or a module
 * pattern ("orders.*", every operation of orders). Nothing else is a pattern.
 */
export function matchesConsumes(consumes: readonly string[], op: string): boolean {
  return consumes.some((c) => c === op || (c.endsWith('.*') && op.startsWith(c.slice(0, -1)) && op.length > c.length - 1));
}
