/**
 * Declared parts and the initializer that starts them (DESIGN.md, Contracts in code). A part is
 * `{ id, deps, init, stop }`; `init` receives the values of exactly the parts it names in `deps`.
 * `startParts` checks the whole list first (a dependency missing from it, or a circle, is named
 * before anything starts), starts the parts in dependency order, and stops them in the reverse
 * order of their start, also when a later part fails to start.
 */

/** A part of a host whose parts' values are typed by the map `M` (id to value). */
export interface Part<M> {
  readonly id: keyof M & string;
  readonly deps: ReadonlyArray<keyof M & string>;
  init(deps: never): unknown;
  stop?(value: never): unknown;
}

export interface PartDefinition<M, Id extends keyof M & string, D extends keyof M & string> {
  id: Id;
  deps: readonly D[];
  init(deps: Pick<M, D>): M[Id] | Promise<M[Id]>;
  stop?(value: M[Id]): void | Promise<void>;
}

/** Typed part declarations for the value map `M`: `const { part } = partsOf<MyParts>()`. */
export function partsOf<M>() {
  return {
    part: <Id extends keyof M & string, D extends keyof M & string = never>(definition: PartDefinition<M, Id, D>): Part<M> => definition as Part<M>,
  };
}

export interface StartedParts<M> {
  values: M;
  /** Stops every started part, the last started first; a failing stop does not keep the others running. */
  stop(): Promise<void>;
}

export async function startParts<M>(parts: ReadonlyArray<Part<M>>): Promise<StartedParts<M>> {
  const order = startOrder(parts);
  const values = new Map<string, unknown>();
  const started: Part<M>[] = [];
  const stop = async () => {
    let first: unknown;
    for (const part of started.splice(0).reverse()) {
      try {
        await (part.stop as ((value: unknown) => unknown) | undefined)?.(values.get(part.id));
      } catch (err) {
        first ??= err;
      }
    }
    if (first !== undefined) throw first;
  };
  for (const part of order) {
    const deps = Object.fromEntries(part.deps.map((id) => [id, values.get(id)]));
    try {
      values.set(part.id, await (part.init as (deps: unknown) => unknown)(deps));
    } catch (err) {
      // What started must not outlive a failed start (an open database server, queue workers, ...).
      await stop().catch(() => undefined);
      throw err;
    }
    started.push(part);
  }
  return { values: Object.fromEntries(values) as M, stop };
}

/**
 * The parts in an order where each comes after its dependencies; among parts free to start, the
 * list's own order decides, so the order (and the reverse stop order) is the same on every boot.
 */
export function startOrder<M>(parts: ReadonlyArray<Part<M>>): Part<M>[] {
  const byId = new Map<string, Part<M>>();
  for (const part of parts) {
    if (byId.has(part.id)) throw new Error(`part '${part.id}' is in the list twice`);
    byId.set(part.id, part);
  }
  for (const part of parts) {
    for (const dep of part.deps) {
      if (!byId.has(dep)) throw new Error(`part '${part.id}' needs '${dep}', which is not in the list`);
    }
  }
  const order: Part<M>[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (part: Part<M>, path: string[]) => {
    const seen = state.get(part.id);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const circle = [...path.slice(path.indexOf(part.id)), part.id].map((id) => `'${id}'`).join(' → ');
      throw new Error(`parts depend on each other in a circle: ${circle}`);
    }
    state.set(part.id, 'visiting');
    for (const dep of part.deps) visit(byId.get(dep)!, [...path, part.id]);
    state.set(part.id, 'done');
    order.push(part);
  };
  for (const part of parts) visit(part, []);
  return order;
}
