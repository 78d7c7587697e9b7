/**
 * Structural validation of module.json against manifest.schema.json with ajv: compiled once per
 * process, every error collected (allErrors), schema defaults filled in, and each ajv error turned
 * into a {pointer, message} a module author can act on.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import semver from 'semver';
import manifestSchema from './manifest.schema.json';
import { childPointer, type ManifestIssue } from './issues';

let compiled: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (compiled) return compiled;
  // verbose: errors carry their parent schema, where the x-hint messages live.
  const ajv = new Ajv({ allErrors: true, verbose: true, useDefaults: true, strictTypes: false });
  // Annotations only: x-hint is the human message for a pattern, tsType feeds generate-types.ts.
  ajv.addKeyword({ keyword: 'x-hint', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'tsType', schemaType: 'string' });
  ajv.addFormat('semver', { type: 'string', validate: (v: string) => semver.valid(v) !== null });
  ajv.addFormat('semver-range', { type: 'string', validate: (v: string) => semver.validRange(v) !== null });
  compiled = ajv.compile(manifestSchema);
  return compiled;
}

/** Validates `data` in place (defaults are written into it) and returns every structural problem. */
export function schemaIssues(data: unknown): ManifestIssue[] {
  const validate = validator();
  if (validate(data)) return [];
  return (validate.errors ?? []).flatMap(toIssue);
}

const FORMAT_MESSAGES: Record<string, string> = {
  semver: 'must be a SemVer version such as "1.0.0"',
  'semver-range': 'must be a SemVer range such as "^2.0.0"',
};

function toIssue(e: ErrorObject): ManifestIssue[] {
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  const hint = typeof parent['x-hint'] === 'string' ? parent['x-hint'] : undefined;
  // The pattern error inside propertyNames has no key name; its propertyNames twin below does.
  if (e.schemaPath.includes('/propertyNames/')) return [];
  switch (e.keyword) {
    case 'if': // wrapper of the then/else error reported next to it
      return [];
    case 'required':
      return [{ pointer: childPointer(e.instancePath, e.params.missingProperty), message: 'is required' }];
    case 'dependencies':
      return [
        {
          pointer: childPointer(e.instancePath, e.params.missingProperty),
          message: `is required when "${e.params.property}" is set`,
        },
      ];
    case 'additionalProperties': {
      const known = Object.keys((parent.properties as object | undefined) ?? {});
      const guess = closest(e.params.additionalProperty, known);
      return [
        {
          pointer: childPointer(e.instancePath, e.params.additionalProperty),
          message: `is not a known property${guess ? ` (did you mean "${guess}"?)` : ''}`,
        },
      ];
    }
    case 'propertyNames': {
      const names = (e.schema ?? {}) as Record<string, unknown>;
      const nameHint = typeof names['x-hint'] === 'string' ? names['x-hint'] : 'is not an allowed key';
      return [{ pointer: childPointer(e.instancePath, e.params.propertyName), message: `key ${nameHint}` }];
    }
    case 'pattern':
      return [{ pointer: e.instancePath, message: hint ?? e.message ?? 'is invalid' }];
    case 'format':
      return [{ pointer: e.instancePath, message: FORMAT_MESSAGES[e.params.format] ?? e.message ?? 'is invalid' }];
    case 'enum':
      return [
        {
          pointer: e.instancePath,
          message: `must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
        },
      ];
    case 'uniqueItems': {
      // ajv's i/j order depends on the item type: blame the later copy.
      const [first, later] = [e.params.i as number, e.params.j as number].sort((a, b) => a - b);
      return [{ pointer: childPointer(e.instancePath, later), message: `duplicates ${childPointer(e.instancePath, first)}` }];
    }
    default:
      return [{ pointer: e.instancePath, message: e.message ?? 'is invalid' }];
  }
}

/** The known property nearest to a typo (edit distance at most 2), to suggest it. */
function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
