/**
 * The code node's placeholders as data (modules/workflows README, The code node's data model): the
 * engine hands the expression over as written, with the value of each placeholder in it
 * (`placeholders`, by path); each `{{path}}` becomes a variable `$<n>` holding that value. A variable
 * name is all that enters the code, so no trigger text is ever part of it.
 */

/** The engine's placeholder syntax (core/catalogs/placeholders.ts), which a module cannot import. */
const PLACEHOLDER = /\{\{\s*([\w.-]+)\s*\}\}/g;

export function placeholderInputs(expression: string, values: Record<string, unknown>): { expression: string; inputs: Record<string, unknown> } {
  const names = new Map<string, string>();
  const inputs: Record<string, unknown> = {};
  const code = expression.replace(PLACEHOLDER, (_match, path: string) => {
    let name = names.get(path);
    if (name === undefined) {
      name = `$${names.size}`;
      names.set(path, name);
      inputs[name] = Object.hasOwn(values, path) ? (values[path] ?? null) : null;
    }
    return name;
  });
  return { expression: code, inputs };
}
