/**
 * The TypeScript types of another module's operations, from its manifest: what `mandi module types`
 * writes for a consumer. Only the operations the consumer consumes (its api.consumes: exact names or
 * `<alias>.*`) are typed, since the bus refuses it every other one; each one's input and output
 * schema becomes a named type, and one `<Alias>Operations` map ties each operation name to both, for
 * `typedCall` (sdk/runtime/typed-call.ts). Manifest schemas are self-contained (no $ref), so an
 * operation's types need nothing beyond its own schemas.
 * The manifest is the contract the host enforces, so types derived from it cannot disagree with it.
 * Events carry no payload schema in a manifest, so no event types are written.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { JSONSchema } from 'json-schema-to-typescript';
import type { Manifest } from '../manifest/manifest.types';

type Compiler = typeof import('json-schema-to-typescript');

/**
 * json-schema-to-typescript stays a development tool, loaded only by this command: with prettier
 * it is ~6 MB of JavaScript that the single-executable CLI (sdk/cli/upgrade/build-executable.ts)
 * does not bundle, and ~120 ms that no other command should pay. It comes from the CLI's own
 * node_modules when there is one (this repository), else from the author's project.
 */
function loadCompiler(): Compiler {
  for (const from of [__filename, ...[process.env.INIT_CWD, process.cwd()].filter(Boolean).map((dir) => path.join(dir!, 'package.json'))]) {
    try {
      return createRequire(from)('json-schema-to-typescript') as Compiler;
    } catch {
      // not installed there: try the next place
    }
  }
  throw new Error('mandi module types needs json-schema-to-typescript in your project: npm install --save-dev json-schema-to-typescript');
}

export interface ConsumerTypesSource {
  /** The version range asked for ("*" when none was). */
  range: string;
  /** The command that refreshes the file, printed in its header. */
  command: string;
  /**
   * The consumer's api.consumes: only the operations it names (exactly or by `<alias>.*`) are typed.
   * Absent: every operation (`mandi module types --all`).
   */
  consumes?: readonly string[];
}

/** The provider's operations that `consumes` names; an exact name it does not provide is an error, not a silent gap. */
export function consumedOperations(manifest: Manifest, consumes: readonly string[] | undefined) {
  const provided = manifest.api?.provides ?? [];
  if (consumes === undefined) return provided;
  const mine = consumes.filter((name) => name === `${manifest.name}.*` || name.startsWith(`${manifest.name}.`));
  const missing = mine.filter((name) => !name.endsWith('.*') && !provided.some((op) => op.name === name));
  if (missing.length) throw new Error(`${manifest.name}@${manifest.version} provides no ${missing.join(', ')}`);
  return mine.includes(`${manifest.name}.*`) ? provided : provided.filter((op) => mine.includes(op.name));
}

/** "orders" + "get_by_number" → "OrdersGetByNumber". */
const pascal = (...parts: string[]) =>
  parts
    .join('_')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');

/** A schema named `title`, made canonical (see below). */
function titled(schema: unknown, title: string): JSONSchema {
  if (schema === undefined) return { title, tsType: 'unknown' } as JSONSchema;
  return { ...(canonical(schema) as object), title } as JSONSchema;
}

/**
 * Keys sorted at every level, so the types do not depend on how the manifest was stored (the
 * registry keeps it as jsonb, which reorders keys); nested titles dropped so nested objects stay inline.
 */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .filter((k) => k !== 'title' && k !== '$id')
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

export async function consumerTypes(manifest: Manifest, source: ConsumerTypesSource): Promise<string> {
  const { compile } = loadCompiler();
  const alias = manifest.name;
  const operations = consumedOperations(manifest, source.consumes);
  const mapName = `${pascal(alias)}Operations`;
  const map: JSONSchema = {
    title: mapName,
    description: `${source.consumes ? 'Each operation of' : 'Every operation of'} ${alias}@${manifest.version}${source.consumes ? ' this module consumes (api.consumes)' : ''}: its input and its output.`,
    type: 'object',
    additionalProperties: false,
    required: operations.map((op) => op.name),
    properties: Object.fromEntries(
      operations.map((op) => {
        const name = pascal(op.name);
        return [
          op.name,
          {
            description: op.description,
            type: 'object',
            additionalProperties: false,
            required: ['input', 'output'],
            properties: { input: titled(op.input, `${name}Input`), output: titled(op.output, `${name}Output`) },
          },
        ];
      }),
    ),
  };
  const banner = [
    // The linter judges hand-written code; a schema of an empty object rightly becomes `{}` here.
    '/* eslint-disable */',
    '/**',
    ` * GENERATED from the manifest of ${alias}@${manifest.version} (range ${source.range}). Do not edit by hand;`,
    ' * refresh with:',
    ` *   ${source.command}`,
    ' */',
  ].join('\n');
  return compile(map, mapName, {
    bannerComment: banner,
    additionalProperties: false,
    declareExternallyReferenced: true,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
  });
}
