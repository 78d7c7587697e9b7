/**
 * JSON text for the wire, measured while it is built: `JSON.stringify` builds its whole text first,
 * past the isolate's memory limit if need be (a few KB of repeated rows can make hundreds of MB), so
 * a replacer counts what the text will hold at least and stops it once over the limit.
 */
import type { WireError } from '../protocol';
import { apply, create, freeze, isArray, slice, stringify, StringCtor } from './intrinsics';

declare const overLimitBrand: unique symbol;
/** Thrown by the replacer of measured() and returned by it; nothing else can throw it. */
export type OverLimit = { readonly [overLimitBrand]: true };
export const overLimit = freeze(create<OverLimit>(null));

/** After measured() returned overLimit: a lower bound of the text's length. */
export let measuredSize = 0;

/**
 * JSON text of value, or overLimit once the text is sure to pass max characters. Counts values and
 * object keys, never commas: a lower bound.
 */
export function measured(value: unknown, max: number): string | undefined | OverLimit {
  let size = 0;
  let root = true;
  const count = function (this: unknown, key: string, v: unknown): unknown {
    if (root) root = false;
    else if (!isArray(this)) size += key.length + 3;
    const t = typeof v;
    size += t === 'string' ? (v as string).length + 2 : t === 'object' ? (v === null ? 4 : 2) : t === 'boolean' ? 4 : t === 'number' || t === 'bigint' ? 1 : 0;
    if (size > max) throw overLimit;
    return v;
  };
  try {
    return stringify(value, count) as string | undefined;
  } catch (e) {
    if (e === overLimit) {
      measuredSize = size;
      return overLimit;
    }
    throw e;
  }
}

export function clip(s: string, n: number): string {
  return s.length > n ? (apply(slice, s, [0, n]) as string) + '...[truncated]' : s;
}

/** A thrown value as WireError JSON, its details dropped when the whole would pass maxOutput. */
export function errorJson(e: unknown, maxOutput: number, prefix?: string): string {
  const info = create<WireError>(null);
  info.name = 'Error';
  info.message = '';
  try {
    if (e !== null && (typeof e === 'object' || typeof e === 'function')) {
      const thrown = e as Record<string, unknown>;
      const n = thrown.name;
      if (typeof n === 'string') info.name = clip(n, 200);
      const m = thrown.message;
      info.message = typeof m === 'string' ? m : m === undefined ? '' : StringCtor(m);
      const c = thrown.code;
      if (typeof c === 'string') info.code = clip(c, 200);
      else if (typeof c === 'number') info.code = c;
      const d = thrown.details;
      if (d !== undefined) info.details = d;
      const s = thrown.stack;
      if (typeof s === 'string') info.stack = clip(s, 8192);
    } else {
      info.message = StringCtor(e);
    }
  } catch (_) {
    if (info.message === '') info.message = 'the thrown value could not be read';
  }
  info.message = clip((prefix || '') + info.message, 16384);
  let json;
  try {
    json = measured(info, maxOutput);
  } catch (_) {
    json = undefined;
  }
  if (typeof json !== 'string' || json.length > maxOutput) {
    delete info.details;
    json = stringify(info);
  }
  return json;
}
