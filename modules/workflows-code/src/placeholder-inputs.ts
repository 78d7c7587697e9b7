/**
 * The code node's placeholders as data (modules/workflows README, The code node's data model): the
 * engine hands the expression over as written, with the value of each placeholder in it
 * (`placeholders`, by path); each `{{path}}` becomes a variable `$<n>` holding that value. A variable
 * name is all that enters the code, so no trigger text is ever part of it.
 *
 * Workflows saved before placeholders were data wrote them inside string literals (`'Hi {{name}}'`),
 * meaning the value's text there. Such a literal is rebuilt as a concatenation of its own pieces and
 * `String($n ?? '')`, so it keeps that meaning; still only variable names and the author's own text
 * enter the code.
 */

/** The engine's placeholder syntax (core/services/contributions/placeholders.ts), which a module cannot import. */
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}/g;
/** The same, stateless (a global regex's test() moves its lastIndex, which matchAll then copies). */
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);
/** A one-line '…' or "…" string literal (escapes kept as written). */
const STRING_LITERAL = /'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g;

export function placeholderInputs(expression: string, values: Record<string, unknown>): { expression: string; inputs: Record<string, unknown> } {
  const names = new Map<string, string>();
  const inputs: Record<string, unknown> = {};
  const variable = (path: string): string => {
    let name = names.get(path);
    if (name === undefined) {
      name = `$${names.size}`;
      names.set(path, name);
      inputs[name] = Object.hasOwn(values, path) ? (values[path] ?? null) : null;
    }
    return name;
  };
  const inLiterals = expression.replace(STRING_LITERAL, (literal) => (HAS_PLACEHOLDER.test(literal) ? asConcatenation(literal, variable) : literal));
  const code = inLiterals.replace(PLACEHOLDER, (_match, path: string) => variable(path));
  return { expression: code, inputs };
}

/** `'Hi {{name}}!'` → `('Hi ' + String($0 ?? '') + '!')`, in the literal's own quotes. */
function asConcatenation(literal: string, variable: (path: string) => string): string {
  const quote = literal[0];
  const body = literal.slice(1, -1);
  const parts: string[] = [];
  let last = 0;
  for (const match of body.matchAll(PLACEHOLDER)) {
    parts.push(quote + body.slice(last, match.index) + quote, `String(${variable(match[1])} ?? '')`);
    last = match.index + match[0].length;
  }
  parts.push(quote + body.slice(last) + quote);
  return `(${parts.join(' + ')})`;
}
