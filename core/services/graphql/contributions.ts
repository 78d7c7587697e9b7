/**
 * What each enabled module adds to the schema, chosen in the priority order of spec 1, GraphQL
 * rule 5, per module alias:
 *   (a) the module's own schema file (`graphql.schema`) with its resolver map (`graphql.resolvers`);
 *   (b) else the providers any enabled module declares for that alias (`graphql.providers[]`);
 *   (c) else fields derived from its `api.provides` (rules 6-7).
 * One way per alias, so a hand-written schema fully replaces what derivation would add. A broken
 * schema or resolver file leaves that module out (with a warning) rather than breaking the gateway.
 */
import { parse, type DocumentNode } from 'graphql';
import type { LoadedModule } from '../../kernel/modules/loaded-module';
import { deriveFields } from './derived-fields';
import { parseFieldBindings, type FieldBinding } from './field-bindings';

export type JoinWay = 'schema' | 'provider' | 'derived';

export interface Contribution {
  /** The module the fields speak for. */
  alias: string;
  way: JoinWay;
  /** The module whose manifest declared it: its api.consumes bounds what the fields may call. */
  declaredBy: LoadedModule;
  /** For messages, e.g. "catalog@1.0.0 graphql/schema.graphql". */
  source: string;
  typeDefs: DocumentNode;
  bindings: Map<string, FieldBinding>;
}

export async function collectContributions(mods: readonly LoadedModule[]): Promise<{ contributions: Contribution[]; warnings: string[] }> {
  const enabled = new Set(mods.map((m) => m.alias));
  const warnings: string[] = [];
  const providersFor = new Map<string, Array<{ by: LoadedModule; schema: string; resolvers: string }>>();
  for (const m of mods) {
    for (const p of m.manifest.graphql?.providers ?? []) {
      if (!enabled.has(p.alias)) {
        warnings.push(`${m.key}: provider for "${p.alias}" ignored: that module is not enabled`);
        continue;
      }
      providersFor.set(p.alias, [...(providersFor.get(p.alias) ?? []), { by: m, schema: p.schema, resolvers: p.resolvers }]);
    }
  }

  const contributions: Contribution[] = [];
  for (const m of mods) {
    try {
      const gql = m.manifest.graphql;
      if (gql?.schema && gql.resolvers) {
        contributions.push(await fromFiles(m, m, 'schema', gql.schema, gql.resolvers));
        continue;
      }
      const providers = providersFor.get(m.alias);
      if (providers?.length) {
        for (const p of providers) contributions.push(await fromFiles(m, p.by, 'provider', p.schema, p.resolvers));
        continue;
      }
      const derived = deriveFields(m);
      if (derived) {
        contributions.push({ alias: m.alias, way: 'derived', declaredBy: m, source: `${m.key} api.provides`, typeDefs: parse(derived.sdl), bindings: derived.bindings });
      }
    } catch (err) {
      warnings.push(`${m.key} left out of the schema: ${(err as Error).message}`);
    }
  }
  return { contributions, warnings };
}

async function fromFiles(speaksFor: LoadedModule, declaredBy: LoadedModule, way: JoinWay, schemaFile: string, resolversFile: string): Promise<Contribution> {
  const source = `${declaredBy.key} ${schemaFile}`;
  const [sdl, map] = await Promise.all([declaredBy.files.read(schemaFile), declaredBy.files.read(resolversFile)]);
  let typeDefs: DocumentNode;
  try {
    typeDefs = parse(sdl, { noLocation: true });
  } catch (err) {
    throw new Error(`${schemaFile}: ${(err as Error).message}`);
  }
  return { alias: speaksFor.alias, way, declaredBy, source, typeDefs, bindings: parseFieldBindings(map, resolversFile) };
}
