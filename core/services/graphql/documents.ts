/**
 * Parsed and validated operations, cached per (schema, introspection switch, SHA-256 of the text):
 * a persisted or repeated query is parsed and validated once per schema, not once per request.
 * Failures are cached too, so a broken query sent in a loop costs a hash and a lookup.
 */
import { LRUCache } from 'lru-cache';
import { GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ValidationRule } from 'graphql';
import type { BuiltSchema } from './schema-builder';

/** Enough for any real operation; stops a pathological text before it costs real CPU. */
const MAX_TOKENS = 20_000;

export type Prepared = { document: DocumentNode; errors?: undefined } | { document?: undefined; errors: readonly GraphQLError[] };

/** Spec 1, GraphQL rule 9: with introspection off, __schema and __type are refused before execution. */
const noIntrospection: ValidationRule = (context) => ({
  Field(node) {
    const name = node.name.value;
    if (name !== '__schema' && name !== '__type') return;
    context.reportError(
      new GraphQLError(`Introspection is disabled for this tenant (field "${name}"); see GET /graphql/schema for the schema.`, {
        nodes: node,
        extensions: { code: 'GRAPHQL_INTROSPECTION_DISABLED' },
      }),
    );
  },
});

const withoutIntrospection = [...specifiedRules, noIntrospection];

export class DocumentCache {
  private readonly docs = new LRUCache<string, Prepared>({ max: 5_000 });

  prepare(built: BuiltSchema, text: string, hash: string, introspection: boolean): Prepared {
    const key = `${built.key}:${introspection ? 'i' : '-'}:${hash}`;
    let prepared = this.docs.get(key);
    if (!prepared) {
      prepared = this.compile(built, text, introspection);
      this.docs.set(key, prepared);
    }
    return prepared;
  }

  private compile(built: BuiltSchema, text: string, introspection: boolean): Prepared {
    let document: DocumentNode;
    try {
      document = parse(text, { maxTokens: MAX_TOKENS });
    } catch (err) {
      const e = err instanceof GraphQLError ? err : new GraphQLError(String(err));
      return { errors: [new GraphQLError(e.message, { source: e.source, positions: e.positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
    }
    const errors = validate(built.schema, document, introspection ? specifiedRules : withoutIntrospection, { maxErrors: 25 });
    return errors.length ? { errors } : { document };
  }
}
