/**
 * Automatic derivation (spec 1, GraphQL rules 6-7): every operation of `api.provides` becomes a
 * field named after it with the dot replaced by an underscore, `(input: JSON): JSON`, carrying the
 * operation's description. Methods starting with a read verb make Query fields, all others Mutation fields.
 * `graphql_expose: false` leaves one operation out; `graphql.auto_resolve: false` the whole module.
 */
import type { Operation } from '../../../sdk/manifest';
import { LoadedModule } from '../../kernel/modules/loaded-module';
import type { FieldBinding } from './field-bindings';

export const QUERY_VERBS = ['get', 'list', 'find', 'search', 'count', 'show', 'fetch'] as const;

/**
 * Rule 6 as worded: the method name "starts with" one of the verbs, letter for letter, so
 * `counterfeit_flag` and `listing_create` are Query fields too (the README says what that means for a
 * module author).
 */
export function isQueryMethod(method: string): boolean {
  return QUERY_VERBS.some((verb) => method.startsWith(verb));
}

export const derivedFieldName = (operation: string): string => operation.replace('.', '_');

export interface DerivedFields {
  sdl: string;
  bindings: Map<string, FieldBinding>;
}

/** The module's derived fields, or undefined when it opted out or exposes nothing. */
export function deriveFields(mod: LoadedModule): DerivedFields | undefined {
  if (mod.manifest.graphql?.auto_resolve === false) return undefined;
  const ops = (mod.manifest.api?.provides ?? []).filter((op) => op.graphql_expose !== false);
  if (!ops.length) return undefined;
  const query: string[] = [];
  const mutation: string[] = [];
  const bindings = new Map<string, FieldBinding>();
  for (const op of ops) {
    const name = derivedFieldName(op.name);
    const read = isQueryMethod(LoadedModule.method(op.name));
    (read ? query : mutation).push(field(name, op));
    bindings.set(`${read ? 'Query' : 'Mutation'}.${name}`, { operation: op.name });
  }
  const block = (type: string, fields: string[]) => (fields.length ? `type ${type} {\n${fields.join('\n')}\n}\n` : '');
  return { sdl: block('Query', query) + block('Mutation', mutation), bindings };
}

function field(name: string, op: Operation): string {
  // A JSON string is a valid GraphQL string literal, whatever the description contains.
  return `  ${JSON.stringify(op.description)}\n  ${name}(input: JSON): JSON`;
}
