/**
 * Writes manifest.types.ts from manifest.schema.json, so the manifest's TypeScript types are derived
 * from the one schema and never written twice. `--check` writes nothing and exits 1 when the committed
 * file differs from what the schema generates (a test runs it, so they cannot drift).
 *
 *   npm run gen:manifest-types            regenerate
 *   npm run gen:manifest-types -- --check verify
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { compile, type JSONSchema } from 'json-schema-to-typescript';

export const SCHEMA_PATH = path.join(__dirname, 'manifest.schema.json');
export const TYPES_PATH = path.join(__dirname, 'manifest.types.ts');

const BANNER = `/**
 * GENERATED from manifest.schema.json by sdk/manifest/generate-types.ts. Do not edit by hand:
 * change the schema, then run \`npm run gen:manifest-types\`.
 *
 * Properties with a schema default (e.g. graphql_expose, limits) are optional here; validateManifest
 * fills them in, so a validated manifest always carries them.
 */`;

export async function generateManifestTypes(): Promise<string> {
  const schema = JSON.parse(await readFile(SCHEMA_PATH, 'utf8')) as JSONSchema;
  return compile(schema, 'Manifest', {
    bannerComment: BANNER,
    additionalProperties: false,
    // Every definition becomes a named export, even those only reached through another one.
    unreachableDefinitions: true,
    format: true,
    style: { singleQuote: true, printWidth: 110 },
  });
}

async function main(args: string[]): Promise<number> {
  const generated = await generateManifestTypes();
  if (args.includes('--check')) {
    const committed = await readFile(TYPES_PATH, 'utf8').catch(() => '');
    if (committed === generated) return 0;
    process.stderr.write(`${path.relative(process.cwd(), TYPES_PATH)} is out of date: run npm run gen:manifest-types\n`);
    return 1;
  }
  await writeFile(TYPES_PATH, generated);
  process.stdout.write(`wrote ${path.relative(process.cwd(), TYPES_PATH)}\n`);
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    },
  );
}
