/**
 * The code node's placeholders become variables (modules/workflows README, The code node's data
 * model); a placeholder inside a string literal keeps meaning its text there.
 */
import { placeholderInputs } from '../src/placeholder-inputs';

/** Runs rewritten code the way the evaluator does: a strict function of the named inputs. */
function run(expression: string, values: Record<string, unknown>): unknown {
  const { expression: code, inputs } = placeholderInputs(expression, values);
  const names = Object.keys(inputs);
  return new Function(...names, `"use strict"; return (${code});`)(...names.map((n) => inputs[n]));
}

describe('spec 2: code node placeholders as data', () => {
  test('a bare placeholder is a variable holding the value, the same path one variable', () => {
    expect(placeholderInputs('{{a}} + {{ a }} * {{b.c}}', { a: 2, 'b.c': 3 })).toEqual({ expression: '$0 + $0 * $1', inputs: { $0: 2, $1: 3 } });
    expect(run('{{a}} + {{a}} * {{b.c}}', { a: 2, 'b.c': 3 })).toBe(8);
  });

  test('a path may name a node label with spaces, or one in brackets (core/services/workflows/README.md, Placeholders)', () => {
    const values = { 'nodes.Make total.output.x': 4, 'nodes["v1.2"].output.x': 1 };
    expect(run('{{nodes.Make total.output.x}} * 2 + {{ nodes["v1.2"].output.x }}', values)).toBe(9);
    expect(run(`'total {{nodes.Make total.output.x}}'`, values)).toBe('total 4');
  });

  test('one that resolves to nothing is null', () => {
    expect(run('{{missing}} === null', {})).toBe(true);
  });

  test('inside quotes it is its text, in either quote, beside escapes the author wrote', () => {
    expect(run(`'Hi {{name}}, it\\'s {{n}}' + "!{{name}}"`, { name: 'Asha', n: 3 })).toBe("Hi Asha, it's 3!Asha");
    expect(run(`'[{{missing}}]'`, {})).toBe('[]');
  });

  test('quote-breaking text in a value stays text', () => {
    const evil = "'); throw new Error('ran'); ('";
    expect(run(`'Hi {{name}}'`, { name: evil })).toBe(`Hi ${evil}`);
    expect(placeholderInputs(`'Hi {{name}}'`, { name: evil }).expression).toBe(`('Hi ' + String($0 ?? '') + '')`);
  });

  test('string literals without placeholders are left as written', () => {
    expect(placeholderInputs(`'{ not one }' + "x"`, {}).expression).toBe(`'{ not one }' + "x"`);
  });
});
