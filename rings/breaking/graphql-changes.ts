/**
 * Breaking GraphQL changes between two versions of a module's SDL (issue 4 item 4), found with
 * graphql-js `findBreakingChanges`. A module's SDL is a fragment of the tenant's schema: it extends
 * Query or Mutation and may name types other modules define, so before comparing, extensions of types
 * the fragment does not define become definitions and unknown named types become scalars. A change
 * inside another module's type is that module's to answer for.
 */
import {
  buildASTSchema,
  findBreakingChanges,
  Kind,
  parse,
  visit,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';

const BUILT_IN = new Set(['String', 'Int', 'Float', 'Boolean', 'ID']);

const EXTENSION_TO_DEFINITION: Partial<Record<Kind, Kind>> = {
  [Kind.OBJECT_TYPE_EXTENSION]: Kind.OBJECT_TYPE_DEFINITION,
  [Kind.INTERFACE_TYPE_EXTENSION]: Kind.INTERFACE_TYPE_DEFINITION,
  [Kind.INPUT_OBJECT_TYPE_EXTENSION]: Kind.INPUT_OBJECT_TYPE_DEFINITION,
  [Kind.ENUM_TYPE_EXTENSION]: Kind.ENUM_TYPE_DEFINITION,
  [Kind.UNION_TYPE_EXTENSION]: Kind.UNION_TYPE_DEFINITION,
  [Kind.SCALAR_TYPE_EXTENSION]: Kind.SCALAR_TYPE_DEFINITION,
};

type Named = DefinitionNode & { name: { value: string }; fields?: readonly unknown[]; values?: readonly unknown[]; types?: readonly unknown[] };

/** The fragment as a schema of its own (see the file comment), and the names stubbed as scalars. */
export function fragmentSchema(sdl: string): { schema: GraphQLSchema; stubs: Set<string> } {
  const doc = parse(sdl, { noLocation: true });
  const merged = new Map<string, Named>();
  const others: DefinitionNode[] = [];
  for (const def of doc.definitions) {
    const asDefinition = EXTENSION_TO_DEFINITION[def.kind];
    if (!('name' in def) || !def.name || (!asDefinition && !def.kind.endsWith('Definition')) || def.kind === Kind.DIRECTIVE_DEFINITION) {
      if (def.kind !== Kind.SCHEMA_EXTENSION) others.push(def);
      continue;
    }
    const name = def.name.value;
    const node = { ...(def as Named), kind: asDefinition ?? def.kind } as Named;
    const earlier = merged.get(name);
    merged.set(
      name,
      earlier
        ? ({
            ...earlier,
            fields: [...(earlier.fields ?? []), ...(node.fields ?? [])],
            values: [...(earlier.values ?? []), ...(node.values ?? [])],
            types: [...(earlier.types ?? []), ...(node.types ?? [])],
          } as Named)
        : node,
    );
  }
  const defined = new Set([...merged.keys(), ...BUILT_IN]);
  const referenced = new Set<string>();
  const standalone: DocumentNode = { kind: Kind.DOCUMENT, definitions: [...merged.values(), ...others] };
  visit(standalone, {
    NamedType(node) {
      referenced.add(node.name.value);
    },
  });
  const stubs = new Set([...referenced].filter((n) => !defined.has(n)));
  const stubSdl = [...stubs].map((n) => `scalar ${n}`).join('\n');
  const definitions = [...standalone.definitions, ...(stubSdl ? parse(stubSdl, { noLocation: true }).definitions : [])];
  return { schema: buildASTSchema({ kind: Kind.DOCUMENT, definitions }, { assumeValidSDL: true }), stubs };
}

/** Descriptions of the breaking changes from `before` to `after` (SDL text; either may be absent). */
export function graphqlBreakingChanges(before: string | undefined, after: string | undefined): string[] {
  if (!before) return [];
  if (!after) return ['the GraphQL schema was removed'];
  const old = fragmentSchema(before);
  // A type only referenced (defined by another module) is not this module's to remove.
  const foreign = (c: { type: string; description: string }) => c.type === 'TYPE_REMOVED' && old.stubs.has(c.description.replace(/ was removed\.$/, ''));
  return findBreakingChanges(old.schema, fragmentSchema(after).schema)
    .filter((c) => !foreign(c))
    .map((c) => `GraphQL: ${c.description} (${c.type})`);
}
