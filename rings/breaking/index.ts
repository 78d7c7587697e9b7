/**
 * What a new version breaks for callers of the old one (DESIGN.md, Rings and the registry: promotion
 * refuses a breaking change to provided operations (removed, input narrowed, output narrowed) or the
 * GraphQL schema without a major version bump). Used by promotion, comparing the candidate with the version the target ring releases.
 */
import semver from 'semver';
import type { LoadedModule } from '../../core/kernel/modules/loaded-module';
import { graphqlBreakingChanges } from './graphql-changes';
import { inputNarrowings, outputNarrowings } from '../../sdk/manifest/schema-narrowing';

export { graphqlBreakingChanges } from './graphql-changes';
export { inputNarrowings, outputNarrowings } from '../../sdk/manifest/schema-narrowing';

const DEFAULT_SDL = 'graphql/schema.graphql';

/** A major bump in SemVer's sense: the new version is outside `^old` (so 0.1 → 0.2 counts). */
export function isMajorBump(from: string, to: string): boolean {
  return semver.gt(to, from) && !semver.satisfies(to, `^${from}`, { includePrerelease: true });
}

async function sdlOf(mod: LoadedModule): Promise<string | undefined> {
  const file = mod.manifest.graphql?.schema ?? DEFAULT_SDL;
  return mod.files.read(file).catch(() => undefined);
}

/** Every breaking change from `before` to `after`, as sentences naming the operation or type. */
export async function breakingChanges(before: LoadedModule, after: LoadedModule): Promise<string[]> {
  const out: string[] = [];
  for (const [name, op] of before.operations) {
    const next = after.operations.get(name);
    if (!next) {
      out.push(`operation ${name} was removed`);
      continue;
    }
    for (const n of inputNarrowings(op.input as never, next.input as never)) out.push(`operation ${name} input narrowed: ${n}`);
    for (const n of outputNarrowings(op.output as never, next.output as never)) out.push(`operation ${name} output narrowed: ${n}`);
  }
  try {
    out.push(...graphqlBreakingChanges(await sdlOf(before), await sdlOf(after)));
  } catch (err) {
    out.push(`the GraphQL schema cannot be compared: ${(err as Error).message}`);
  }
  return out;
}
