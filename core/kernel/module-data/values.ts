/**
 * Values crossing host.db, per column type. In: JSON from the sandbox, checked and turned into
 * what the driver stores exactly. Out: JSON-safe values (DESIGN.md, Data):
 *   decimal  → decimal string as PostgreSQL returns it ("0.30"), never a float
 *   bigint   → string (int8 exceeds 2^53), integer → number
 *   datetime → ISO 8601 UTC string, millisecond precision; date → "YYYY-MM-DD"
 *   json     → the stored JSON; uuid, string, text → string; boolean → boolean
 */
import type { CompiledColumn, CompiledModel } from './types';

export class ValueError extends Error {}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const BIGINT = /^[+-]?\d{1,19}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// A time zone is required: a bare local time would be read in the server's zone.
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : JSON.stringify(v));

function fail(col: CompiledColumn, expected: string, value: unknown): never {
  throw new ValueError(`"${col.name}" is ${col.type}: expected ${expected}, got ${describe(value)}`);
}

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/** A JSON value checked for the column and shaped for the driver; throws ValueError. */
export function toDbValue(col: CompiledColumn, value: unknown): unknown {
  if (value === null) {
    if (!col.nullable) throw new ValueError(`"${col.name}" cannot be null`);
    return null;
  }
  switch (col.type) {
    case 'string':
    case 'text':
      if (typeof value !== 'string') fail(col, 'a string', value);
      if (value.includes('\u0000')) fail(col, 'a string without NUL characters', value);
      if (col.type === 'string' && value.length > (col.length ?? 255)) {
        throw new ValueError(`"${col.name}" is longer than its ${col.length ?? 255} characters`);
      }
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < INT4_MIN || value > INT4_MAX) {
        fail(col, 'a 32-bit integer', value);
      }
      return value;
    case 'bigint': {
      if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
      if (typeof value !== 'string' || !BIGINT.test(value)) fail(col, 'an integer or a string of digits', value);
      const big = BigInt(value);
      if (big < INT8_MIN || big > INT8_MAX) fail(col, 'a 64-bit integer', value);
      return big.toString();
    }
    case 'decimal':
      if (typeof value === 'number') {
        if (Number.isSafeInteger(value)) return String(value);
        fail(col, 'a decimal string such as "19.99" (JSON numbers with a fraction are floats and lose cents)', value);
      }
      if (typeof value !== 'string' || !DECIMAL.test(value)) fail(col, 'a decimal string such as "19.99"', value);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') fail(col, 'true or false', value);
      return value;
    case 'date': {
      const m = typeof value === 'string' ? DATE.exec(value) : null;
      if (!m || !validDate(Number(m[1]), Number(m[2]), Number(m[3]))) fail(col, 'a date "YYYY-MM-DD"', value);
      return value;
    }
    case 'datetime': {
      if (typeof value !== 'string' || !DATETIME.test(value) || Number.isNaN(Date.parse(value))) {
        fail(col, 'an ISO 8601 time with a zone, e.g. "2025-01-31T12:00:00Z"', value);
      }
      return new Date(value);
    }
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) fail(col, 'a UUID string', value);
      return value.toLowerCase();
    case 'json':
      return value;
  }
}

function isoDate(d: Date): string {
  return `${d.getUTCFullYear().toString().padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** A stored value as JSON (see the table at the top). */
export function toJsonValue(col: CompiledColumn, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (col.type) {
    case 'integer':
      return typeof value === 'number' ? value : Number(value);
    case 'bigint':
    case 'decimal':
      return String(value);
    case 'datetime':
      return (value instanceof Date ? value : new Date(String(value))).toISOString();
    case 'date':
      return value instanceof Date ? isoDate(value) : String(value).slice(0, 10);
    case 'boolean':
      return typeof value === 'boolean' ? value : value === 't' || value === 'true';
    case 'json':
      return value;
    default:
      return String(value);
  }
}

/** A stored row as a plain JSON object with the model's columns (or the selected ones). */
export function rowToJson(model: CompiledModel, row: Record<string, unknown>, attributes?: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of attributes ?? model.columns.keys()) {
    out[name] = toJsonValue(model.columns.get(name)!, row[name]);
  }
  return out;
}
