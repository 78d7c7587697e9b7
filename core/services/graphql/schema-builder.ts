/**
 * Assembles one executable schema from a module set (spec 1, GraphQL rules 5-7; Versioning 3): the
 * base types, then each module's contribution merged with @graphql-tools, in alias order. A
 * contribution that cannot be merged with those before it (a conflicting type, an unknown type) is
 * left out with a warning, and so is a resolver for a field that does not exist, so one faulty
 * module never takes the gateway down. The base defines both roots, Query and Mutation, so that a
 * module's schema file may `extend` either whatever else is installed (rule 5(a)).
 */
import { mergeTypeDefs } from '@graphql-tools/merge';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { assertValidSchema, buildASTSchema, GraphQLObjectType, Kind, OperationTypeNode, parse, printSchema, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { CoreOperation } from '../../kernel/bus/types';
import type { TenantModules } from '../../kernel/modules/tenant-modules';
import { collectContributions, type Contribution } from './contributions';
import { consumesRefusal, fieldResolver, unguardedRefusal, type ResolverScope } from './field-resolvers';
import { JSONScalar } from './json-scalar';

const BASE = parse(`
  scalar JSON
  type Query {
    "The ring and the module versions this schema was assembled from."
    _gateway: GatewayInfo!
  }
  type Mutation
  type GatewayInfo {
    ring: String!
    "Hash over every enabled module's alias and version."
    fingerprint: String!
    "alias@version of every enabled module."
    modules: [String!]!
  }
`);

export interface BuiltSchema {
  /** graphql:schema:<ring>:<fingerprint> */
  key: string;
  ring: string;
  fingerprint: string;
  schema: GraphQLSchema;
  /** The merged schema text; comments at the top say how each module joined, and any warnings. */
  sdl: string;
  warnings: string[];
  /** How each module joined, e.g. {catalog: 'schema file'}. */
  joined: Record<string, string>;
}

export const schemaCacheKey = (ring: string, fingerprint: string) => `graphql:schema:${ring}:${fingerprint}`;

/** The base and the contributions as one document; Mutation is dropped while no module adds a field to it (a type needs one). */
function mergeWithBase(docs: DocumentNode[]): DocumentNode {
  const merged = mergeTypeDefs([BASE, ...docs]);
  const isEmptyMutation = (d: DocumentNode['definitions'][number]) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Mutation' && !d.fields?.length;
  if (!merged.definitions.some(isEmptyMutation)) return merged;
  const definitions = merged.definitions
    .filter((d) => !isEmptyMutation(d))
    .map((d) => (d.kind === Kind.SCHEMA_DEFINITION ? { ...d, operationTypes: d.operationTypes.filter((t) => t.operation !== OperationTypeNode.MUTATION) } : d));
  return { ...merged, definitions };
}

function merge(docs: DocumentNode[]): GraphQLSchema {
  const schema = buildASTSchema(mergeWithBase(docs));
  assertValidSchema(schema);
  return schema;
}

export async function buildSchema(ring: string, modules: TenantModules, core: readonly CoreOperation[]): Promise<BuiltSchema> {
  const { contributions, warnings } = await collectContributions(modules.list);

  let accepted: Contribution[] = contributions;
  try {
    merge(contributions.map((c) => c.typeDefs));
  } catch {
    // Find the culprits one by one: only on failure, so the usual build stays a single merge.
    accepted = [];
    for (const c of contributions) {
      try {
        merge([...accepted.map((a) => a.typeDefs), c.typeDefs]);
        accepted.push(c);
      } catch (err) {
        warnings.push(`${c.source} left out of the schema: ${(err as Error).message}`);
      }
    }
  }
  const typeDefs = mergeWithBase(accepted.map((c) => c.typeDefs));
  const shape = buildASTSchema(typeDefs);
  const mutationType = shape.getMutationType()?.name;

  const scope: ResolverScope = { modules, core: new Map(core.map((op) => [op.name, op])) };
  const resolvers: Record<string, Record<string, unknown>> = {};
  const bound = new Map<string, string>();
  const joined: Record<string, string> = {};
  for (const c of accepted) {
    joined[c.alias] = c.way === 'provider' ? `provider in ${c.declaredBy.key}` : c.way === 'schema' ? 'schema file' : 'derived';
    for (const [key, binding] of c.bindings) {
      const [typeName, fieldName] = key.split('.');
      const type = shape.getType(typeName);
      if (!(type instanceof GraphQLObjectType) || !type.getFields()[fieldName]) {
        warnings.push(`${c.source}: resolver for ${key} ignored: the schema has no such field`);
        continue;
      }
      if (bound.has(key)) {
        warnings.push(`${c.source}: resolver for ${key} ignored: ${bound.get(key)} already resolves it`);
        continue;
      }
      bound.set(key, c.source);
      const refusal = binding.operation ? (consumesRefusal(binding.operation, c, scope) ?? unguardedRefusal(key, binding, scope)) : undefined;
      (resolvers[typeName] ??= {})[fieldName] = fieldResolver(key, binding, { writes: typeName === mutationType, refusal });
    }
  }
  const fingerprint = modules.fingerprint;
  const info = { ring, fingerprint, modules: modules.list.map((m) => m.key) };
  (resolvers.Query ??= {})._gateway = () => info;

  const schema = makeExecutableSchema({ typeDefs, resolvers: { ...resolvers, JSON: JSONScalar } });
  const header = [
    `# ${schemaCacheKey(ring, fingerprint)}`,
    ...modules.list.map((m) => `# ${m.key}: ${joined[m.alias] ?? 'not joined'}`),
    ...warnings.map((w) => `# warning: ${w.replace(/\s*\n\s*/g, ' ')}`),
  ].join('\n');
  return {
    key: schemaCacheKey(ring, fingerprint),
    ring,
    fingerprint,
    schema,
    sdl: `${header}\n\n${printSchema(schema)}`,
    warnings,
    joined,
  };
}
