/**
 * Provider contracts in a manifest (DESIGN.md, Host capabilities for modules): a contract's name is
 * no module's alias; a module that lists `api.implements: ["payment@1"]` provides every operation
 * of the contract under its own alias, each accepting at least what the contract's input allows and
 * returning nothing the contract's output does not promise (the comparisons rings use for breaking
 * changes); a consumed contract operation exists. Run with the semantic rules when a manifest is
 * validated (build, pack, publish) and again at install, against the contracts this host knows.
 */
import { CONTRACT_NAMES, CONTRACTS } from '../contracts';
import { childPointer, type ManifestIssue } from './issues';
import { inputNarrowings, outputNarrowings, type Schema } from './schema-narrowing';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const at = (v: unknown, ...keys: string[]): unknown => keys.reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), v);
/** TypeBox schemas carry symbol-keyed markers; the comparisons read plain JSON. */
const json = (s: unknown) => JSON.parse(JSON.stringify(s)) as Schema;

const known = () => [...CONTRACTS.keys()].join(', ');

export function contractIssues(doc: unknown): ManifestIssue[] {
  if (!isObj(doc)) return [];
  const issues: ManifestIssue[] = [];
  const report = (pointer: string, message: string) => issues.push({ pointer, message });
  const alias = typeof doc.name === 'string' ? doc.name : undefined;
  if (alias && CONTRACT_NAMES.has(alias)) {
    report('/name', `"${alias}" is reserved: it names a provider contract (${known()}); choose another alias, e.g. "${alias}_<vendor>", and list the contract in api.implements`);
  }

  const provided = new Map<string, { pointer: string; op: Obj }>();
  list(at(doc, 'api', 'provides')).forEach((op, i) => {
    const name = at(op, 'name');
    if (typeof name === 'string' && isObj(op)) provided.set(name, { pointer: `/api/provides/${i}`, op });
  });
  list(at(doc, 'api', 'implements')).forEach((id, i) => {
    if (typeof id !== 'string') return;
    const p = `/api/implements/${i}`;
    const contract = CONTRACTS.get(id);
    if (!contract) return report(p, `"${id}" is not a contract this platform defines (${known()})`);
    if (!alias) return;
    for (const [method, def] of Object.entries(contract.operations)) {
      const name = `${alias}.${method}`;
      const found = provided.get(name);
      if (!found) {
        report(p, `implementing ${id} needs the operation "${name}" (${contract.name}.${method}: ${def.description}); add it to api.provides`);
        continue;
      }
      const narrower = inputNarrowings(json(def.input), json(found.op.input));
      if (narrower.length) report(`${found.pointer}/input`, `refuses input ${id} allows for ${contract.name}.${method}: ${narrower.join('; ')}`);
      const looser = outputNarrowings(json(def.output), json(found.op.output));
      if (looser.length) report(`${found.pointer}/output`, `returns what ${id} does not promise for ${contract.name}.${method}: ${looser.join('; ')}`);
    }
  });

  list(at(doc, 'api', 'consumes')).forEach((entry, i) => {
    if (typeof entry !== 'string') return;
    const [name, method] = entry.split('.');
    if (!CONTRACT_NAMES.has(name) || method === '*') return;
    const offered = [...CONTRACTS.values()].filter((c) => c.name === name);
    if (!offered.some((c) => Object.hasOwn(c.operations, method))) {
      const methods = [...new Set(offered.flatMap((c) => Object.keys(c.operations)))].join(', ');
      report(childPointer('/api/consumes', i), `the ${name} contract has no operation "${method}" (it has ${methods})`);
    }
  });
  return issues;
}
