/** Reading row data and filling `{{key}}` placeholders (spec 1, Action types: "with the data of the row"). */
export type Row = Record<string, unknown>;

export function valueAt(row: unknown, path: string): unknown {
  let cur: unknown = row;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Row)[part];
  }
  return cur;
}

/** Every `{{key}}` in strings (deeply) replaced with the row's value; a string that is one placeholder keeps the value's type. */
export function fill<T>(template: T, row: Row): T {
  if (typeof template === 'string') {
    const whole = /^\{\{\s*([\w.]+)\s*\}\}$/.exec(template);
    if (whole) {
      const v = valueAt(row, whole[1]);
      return (v === undefined ? '' : v) as T;
    }
    return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_m, key: string) => {
      const v = valueAt(row, key);
      return v === undefined || v === null ? '' : String(v);
    }) as T;
  }
  if (Array.isArray(template)) return template.map((t) => fill(t, row)) as T;
  if (template && typeof template === 'object') return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fill(v, row)])) as T;
  return template;
}

export const isObject = (v: unknown): v is Row => v !== null && typeof v === 'object' && !Array.isArray(v);
