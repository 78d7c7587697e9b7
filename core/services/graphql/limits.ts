/**
 * Query limits (spec 1, Limits): depth 7, complexity 1000, aliases 30 by default
 * (`graphql.limits.*`, env GRAPHQL_LIMIT_DEPTH / _COMPLEXITY / _ALIASES), checked after validation
 * and before anything runs. Each broken limit is reported with its name, the limit and the value.
 *
 * - depth: nesting of fields; `{ a }` is 1, `{ a { b } }` is 2. Fragments count where they are spread.
 * - aliases: aliased fields in the operation, fragments expanded (a fragment spread twice counts twice).
 * - complexity: every field costs 1 plus its children's cost, times the page size asked for when the
 *   field takes one (argument first, last, limit, per_page or page_size, or that key in `input`).
 * Introspection fields (`__schema`, `__type`) are left out: introspection has its own switch.
 */
import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { Kind, visit, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode, type ValueNode } from 'graphql';
import type { MandiError } from '../../kernel/errors';
import { graphqlErrors } from './errors';

export interface GraphqlLimits {
  depth: number;
  complexity: number;
  aliases: number;
}

interface Shape {
  depth: number;
  aliases: number;
}

/** Depth and alias count of one operation; each fragment is measured once, however often it is spread. */
export function measureOperation(document: DocumentNode, operation: OperationDefinitionNode): Shape {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, Shape>();
  const none: Shape = { depth: 0, aliases: 0 };

  const fragment = (name: string): Shape => {
    const known = memo.get(name);
    if (known) return known;
    memo.set(name, none); // a cycle (refused by validation anyway) adds nothing
    const def = fragments.get(name);
    const shape = def ? selections(def.selectionSet) : none;
    memo.set(name, shape);
    return shape;
  };
  const selections = (set: SelectionSetNode): Shape => {
    let depth = 0;
    let aliases = 0;
    for (const sel of set.selections) {
      let s: Shape;
      if (sel.kind === Kind.FIELD) {
        const aliased = sel.alias ? 1 : 0;
        if (sel.name.value.startsWith('__')) {
          aliases += aliased;
          continue;
        }
        const inner = sel.selectionSet ? selections(sel.selectionSet) : none;
        s = { depth: inner.depth + 1, aliases: inner.aliases + aliased };
      } else if (sel.kind === Kind.INLINE_FRAGMENT) s = selections(sel.selectionSet);
      else s = fragment(sel.name.value);
      depth = Math.max(depth, s.depth);
      aliases += s.aliases;
    }
    return { depth, aliases };
  };
  return selections(operation.selectionSet);
}

const PAGE_ARGS = ['first', 'last', 'limit', 'per_page', 'page_size'];

function pageSize(args: Record<string, unknown>): number {
  const input = args.input && typeof args.input === 'object' ? (args.input as Record<string, unknown>) : {};
  for (const name of PAGE_ARGS) {
    const v = args[name] ?? input[name];
    if (typeof v === 'number' && Number.isFinite(v) && v > 1) return Math.floor(v);
  }
  return 1;
}

const estimator: ComplexityEstimator = ({ field, args, childComplexity }) =>
  field.name.startsWith('__') ? 0 : 1 + pageSize(args) * childComplexity;

/**
 * The variables a complexity score can depend on: those inside a page-size argument, an `input`
 * argument (page sizes may sit in it) or an @include/@skip condition. Every other variable (an id,
 * a sku) leaves the score unchanged, so the score can be cached per text and these values.
 */
export function complexityVariables(document: DocumentNode): string[] {
  const names = new Set<string>();
  const collect = (value: ValueNode) => {
    if (value.kind === Kind.VARIABLE) names.add(value.name.value);
    else if (value.kind === Kind.LIST) value.values.forEach(collect);
    else if (value.kind === Kind.OBJECT) value.fields.forEach((f) => collect(f.value));
  };
  visit(document, {
    Field(node) {
      for (const arg of node.arguments ?? []) if (arg.name.value === 'input' || PAGE_ARGS.includes(arg.name.value)) collect(arg.value);
    },
    Directive(node) {
      if (node.name.value === 'include' || node.name.value === 'skip') for (const arg of node.arguments ?? []) collect(arg.value);
    },
  });
  return [...names].sort();
}

export function queryComplexity(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, variables: Record<string, unknown>): number {
  return getComplexity({ estimators: [estimator], schema, query: document, operationName, variables });
}

/** The catalog's error for a limit the operation breaks (core/services/graphql/errors.ts). */
export function limitError(limit: keyof GraphqlLimits, max: number, value: number): MandiError {
  const byLimit = { depth: graphqlErrors.depthLimit, aliases: graphqlErrors.aliasLimit, complexity: graphqlErrors.complexityLimit };
  return byLimit[limit](max, value);
}

/** Every limit the operation breaks (empty when it keeps to all of them). */
export function checkLimits(
  limits: GraphqlLimits,
  shape: Shape,
  complexity: () => number,
): MandiError[] {
  const broken: MandiError[] = [];
  if (shape.depth > limits.depth) broken.push(limitError('depth', limits.depth, shape.depth));
  if (shape.aliases > limits.aliases) broken.push(limitError('aliases', limits.aliases, shape.aliases));
  // Complexity walks the whole tree: only worth it (and only safe) once depth and aliases are sane.
  if (!broken.length) {
    let value: number;
    try {
      value = complexity();
    } catch {
      value = Infinity; // more nodes than the estimator will walk
    }
    if (value > limits.complexity) broken.push(limitError('complexity', limits.complexity, value));
  }
  return broken;
}
