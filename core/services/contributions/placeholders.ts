/**
 * `{{key}}` placeholders in screen definitions (spec 1: "Action string fields accept {{key}}
 * placeholders"), resolved against request values. A string that is one placeholder takes the
 * value itself (a number stays a number); placeholders inside text are interpolated. Keys whose value
 * resolves to nothing (missing or empty) are left out, so an unset filter sends no parameter. A key
 * of a path may hold spaces, and in brackets (`["a.b"]`) any text: workflow node labels are free text.
 */
/** A path: anything but braces, so a key may hold spaces (`{{nodes.Make total.output.x}}`). */
const PATH = String.raw`[^{}]+?`;
const WHOLE = new RegExp(String.raw`^\{\{\s*(${PATH})\s*\}\}$`);
const INNER = new RegExp(String.raw`\{\{\s*(${PATH})\s*\}\}`, 'g');
/** One key of a path: `["…"]` / `['…']` (any text, dots too) or the text up to the next `.` or `[`. */
const KEY = /\[\s*(?:"([^"]*)"|'([^']*)')\s*\]|([^.[\]]+)/g;

/** The keys of a path: `nodes.Make total.output` and `nodes["Make total"].output` are both nodes, Make total, output. */
export function pathKeys(path: string): string[] {
  const keys: string[] = [];
  for (const m of path.matchAll(KEY)) {
    const key = m[1] ?? m[2] ?? m[3].trim();
    if (key !== '' || m[3] === undefined) keys.push(key);
  }
  return keys;
}

/** The value at a path (`pagination.total`, `nodes["Make total"].output.x`), or undefined. */
export function pathValue(value: unknown, path: string): unknown {
  return pathKeys(path).reduce<unknown>((v, key) => (v !== null && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined), value);
}

/** The paths of the placeholders in a text, in order. */
export function placeholderPaths(text: string): string[] {
  return Array.from(text.matchAll(INNER), (m) => m[1]);
}

export function resolvePlaceholders(template: unknown, values: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE.exec(template);
    if (whole) return pathValue(values, whole[1]);
    return template.replace(INNER, (_m, path: string) => {
      const v = pathValue(values, path);
      return v === undefined || v === null ? '' : String(v);
    });
  }
  if (Array.isArray(template)) return template.map((t) => resolvePlaceholders(t, values));
  if (template !== null && typeof template === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, t] of Object.entries(template)) {
      const v = resolvePlaceholders(t, values);
      if (v !== undefined && v !== '') out[key] = v;
    }
    return out;
  }
  return template;
}
