/**
 * `{{key}}` placeholders in screen definitions (spec 1: "Action string fields accept {{key}}
 * placeholders"), resolved against request values. A string that is one placeholder takes the
 * value itself (a number stays a number); placeholders inside text are interpolated. Keys whose value
 * resolves to nothing (missing or empty) are left out, so an unset filter sends no parameter.
 */
const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const INNER = /\{\{\s*([\w.-]+)\s*\}\}/g;

/** The value at a dotted path (`pagination.total`), or undefined. */
export function pathValue(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), value);
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
