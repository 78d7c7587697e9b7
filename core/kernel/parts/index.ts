/**
 * Declared parts and the initializer that starts them (DESIGN.md, Contracts in code). A part is
 * declared by its typed ref (`partRef<T>(id)`, beside its owner) and a record of the refs it needs;
 * its `init` receives exactly those values. `startParts` checks the whole list first (a dependency
 * missing from it, or a circle, is named before anything starts), starts the parts in dependency
 * order, and on stop runs every drain step the parts registered, then every part's stop, both in
 * the reverse order of their start, also when a later part fails to start.
 */

declare const valueType: unique symbol;

/** A part's name and, in the type only, the type of the value it gives the parts that need it. */
export interface PartRef<T> {
  readonly id: string;
  readonly [valueType]?: T;
}

export function partRef<T>(id: string): PartRef<T> {
  return { id };
}

/** The value type a ref stands for. */
export type PartValue<R> = R extends PartRef<infer T> ? T : never;

/** The values of a record of refs, key by key: what `init` receives for its `deps`. */
export type PartValues<D extends Record<string, PartRef<unknown>>> = { [K in keyof D]: PartValue<D[K]> };

/**
 * The second argument of every `init`. `onDrain` registers a step that stops taking new work and
 * finishes what is in flight (queue workers, workflow runs, the HTTP server's requests): on stop,
 * every part's drain runs (the last started first) before any part's stop, so nothing still working
 * finds a database or connection it uses closed under it.
 */
export interface Lifecycle {
  onDrain(step: () => unknown): void;
}

/** A declared part, as the initializer sees it. */
export interface Part<T = unknown> {
  readonly ref: PartRef<T>;
  readonly deps: Readonly<Record<string, PartRef<unknown>>>;
  readonly collects?: PartRef<unknown>;
  init(deps: never, lifecycle: Lifecycle): unknown;
  stop?(value: never): unknown;
}

export interface PartDefinition<T, D extends Record<string, PartRef<unknown>>> {
  ref: PartRef<T>;
  deps?: D;
  /**
   * A contribution point (a ref other parts need in order to add to its value, such as the HTTP
   * routes' registry): this part starts after every part in the list that needs it, so it finds
   * all they added, and none of them can need this part.
   */
  collects?: PartRef<unknown>;
  init(deps: PartValues<D>, lifecycle: Lifecycle): NoInfer<T> | Promise<NoInfer<T>>;
  /** Releases what the part holds (connections, timers), after every part's drain. */
  stop?(value: NoInfer<T>): unknown;
}

export function definePart<T, D extends Record<string, PartRef<unknown>> = Record<never, never>>(definition: PartDefinition<T, D>): Part<T> {
  return { ...definition, deps: definition.deps ?? {} } as Part<T>;
}

/** A part whose value the host is given ready-made (the config, the logger). */
export function givenPart<T>(ref: PartRef<T>, value: T): Part<T> {
  return definePart({ ref, init: () => value });
}

export interface StartedParts {
  /** The value of a started part. */
  get<T>(ref: PartRef<T>): T;
  /**
   * Runs every drain, then every part's stop, each the last started first; a failing step does not
   * keep the others from running (the first failure is thrown at the end).
   */
  stop(): Promise<void>;
}

export async function startParts(parts: ReadonlyArray<Part>): Promise<StartedParts> {
  const order = startOrder(parts);
  const values = new Map<string, unknown>();
  const started: Part[] = [];
  const drains: Array<() => unknown> = [];
  const stop = async () => {
    let first: unknown;
    const run = async (step: () => unknown) => {
      try {
        await step();
      } catch (err) {
        first ??= err;
      }
    };
    for (const drain of drains.splice(0).reverse()) await run(drain);
    for (const part of started.splice(0).reverse()) {
      if (part.stop) await run(() => (part.stop as (value: unknown) => unknown)(values.get(part.ref.id)));
    }
    if (first !== undefined) throw first;
  };
  for (const part of order) {
    const deps = Object.fromEntries(Object.entries(part.deps).map(([key, ref]) => [key, values.get(ref.id)]));
    try {
      // Drains count from their part's start (the last started drains first); those of a part that
      // fails to start run too, for what it set going before it failed.
      values.set(part.ref.id, await (part.init as (deps: unknown, lifecycle: Lifecycle) => unknown)(deps, { onDrain: (step) => void drains.push(step) }));
    } catch (err) {
      // What started must not outlive a failed start (an open database server, queue workers, ...).
      await stop().catch(() => undefined);
      throw err;
    }
    started.push(part);
  }
  return {
    get: <T>(ref: PartRef<T>) => {
      if (!values.has(ref.id)) throw new Error(`part '${ref.id}' is not in the list`);
      return values.get(ref.id) as T;
    },
    stop,
  };
}

/**
 * The parts in an order where each comes after its dependencies; among parts free to start, the
 * list's own order decides, so the order (and the reverse stop order) is the same on every boot.
 */
export function startOrder(parts: ReadonlyArray<Part>): Part[] {
  const byId = new Map<string, Part>();
  for (const part of parts) {
    if (byId.has(part.ref.id)) throw new Error(`part '${part.ref.id}' is in the list twice`);
    byId.set(part.ref.id, part);
  }
  for (const part of parts) {
    for (const dep of Object.values(part.deps)) {
      if (!byId.has(dep.id)) throw new Error(`part '${part.ref.id}' needs '${dep.id}', which is not in the list`);
    }
  }
  // A collector comes after every contributor as if it needed each of them (circles included).
  const after = (part: Part): Part[] => {
    const deps = Object.values(part.deps).map((dep) => byId.get(dep.id)!);
    const point = part.collects?.id;
    if (point === undefined) return deps;
    return [...deps, ...parts.filter((p) => p !== part && Object.values(p.deps).some((dep) => dep.id === point))];
  };
  const order: Part[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (part: Part, path: string[]) => {
    const id = part.ref.id;
    const seen = state.get(id);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const circle = [...path.slice(path.indexOf(id)), id].map((p) => `'${p}'`).join(' → ');
      throw new Error(`parts depend on each other in a circle: ${circle}`);
    }
    state.set(id, 'visiting');
    for (const dep of after(part)) visit(dep, [...path, id]);
    state.set(id, 'done');
    order.push(part);
  };
  for (const part of parts) visit(part, []);
  return order;
}
