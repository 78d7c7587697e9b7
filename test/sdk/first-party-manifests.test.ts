/**
 * Every first-party module declared in TypeScript has its committed module.json exactly as
 * `mandi module build` writes it from the declarations (DESIGN "Contracts in code"): a declaration
 * changed without rebuilding, or module.json edited by hand, fails here. Every operation also
 * declares what it returns: an output that accepts anything (`{}`, or an object with no properties
 * that allows any) tells a consumer and the ring's compatibility gate nothing, so it fails too.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { buildModule } from '../../sdk/build/build-module';
import type { JsonSchema } from '../../sdk/manifest/manifest.types';

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', '$comment']);

/** True for a schema that every value (or every object) passes. */
function acceptsAnything(schema: JsonSchema | boolean | undefined): boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  const s = schema as Record<string, unknown>;
  if (Object.keys(s).every((k) => ANNOTATIONS.has(k))) return true;
  if (s.type !== 'object') return false;
  const some = (v: unknown) => typeof v === 'object' && v !== null && Object.keys(v).length > 0;
  const additional = s.additionalProperties as JsonSchema | boolean | undefined;
  const patterns = Object.values((s.patternProperties ?? {}) as Record<string, JsonSchema>);
  return !some(s.properties) && !some(s.required) && acceptsAnything(additional) && patterns.every(acceptsAnything);
}

const MODULES = path.resolve(__dirname, '../../modules');
const declared = readdirSync(MODULES);

describe('DESIGN Contracts in code: first-party module.json files are generated from their declarations', () => {
  it('covers the declared modules', () => {
    expect(declared).toEqual(expect.arrayContaining(['loyalty', 'orders', 'payment-razorpay', 'sms-msg91', 'whatsapp-cloud']));
  });

  it('an output that accepts anything is told apart from one with a shape', () => {
    for (const loose of [{}, { description: 'x' }, { type: 'object' }, { type: 'object', additionalProperties: true }, { type: 'object', patternProperties: { '^(.*)$': {} } }]) {
      expect(acceptsAnything(loose as JsonSchema)).toBe(true);
    }
    for (const shaped of [{ type: 'string' }, { type: 'object', properties: { id: { type: 'string' } } }, { type: 'object', additionalProperties: false }, { type: 'object', additionalProperties: { type: 'string' } }]) {
      expect(acceptsAnything(shaped as JsonSchema)).toBe(false);
    }
  });

  it.each(declared)('modules/%s/module.json matches its declarations, and every operation declares an output with a shape', async (name) => {
    const result = await buildModule(path.join(MODULES, name), { check: true });
    expect(result.declared).toBe(true);
    expect((result.manifest.api?.provides ?? []).filter((op) => acceptsAnything(op.output)).map((op) => op.name)).toEqual([]);
  });
});
