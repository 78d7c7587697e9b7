import { definePart, partRef, startParts, type PartRef } from '.';

const refs = { a: partRef<string>('a'), b: partRef<string>('b'), c: partRef<string>('c') };
type Id = keyof typeof refs;
const values = (started: { get(ref: PartRef<string>): string }, ids: Id[]) => Object.fromEntries(ids.map((id) => [id, started.get(refs[id])]));

/** Parts that write what they do into `log`. */
function recorded(log: string[], fail?: Id) {
  const make = (id: Id, deps: Id[]) =>
    definePart({
      ref: refs[id],
      deps: Object.fromEntries(deps.map((dep) => [dep, refs[dep]])),
      init: (d) => {
        if (id === fail) throw new Error(`${id} cannot start`);
        log.push(`start ${id} with ${JSON.stringify(d)}`);
        return id.toUpperCase();
      },
      stop: (value) => void log.push(`stop ${value}`),
    });
  return { make };
}

describe('parts: start in dependency order, stop in reverse', () => {
  it('starts each part after its deps, passing exactly their values, and stops in reverse', async () => {
    const log: string[] = [];
    const { make } = recorded(log);
    // Listed out of order: c needs a and b, b needs a.
    const started = await startParts([make('c', ['a', 'b']), make('b', ['a']), make('a', [])]);
    expect(values(started, ['a', 'b', 'c'])).toEqual({ a: 'A', b: 'B', c: 'C' });
    await started.stop();
    expect(log).toEqual(['start a with {}', 'start b with {"a":"A"}', 'start c with {"a":"A","b":"B"}', 'stop C', 'stop B', 'stop A']);
  });

  it('names a dependency missing from the list, before anything starts', async () => {
    const log: string[] = [];
    const { make } = recorded(log);
    await expect(startParts([make('a', []), make('c', ['b'])])).rejects.toThrow("part 'c' needs 'b', which is not in the list");
    expect(log).toEqual([]);
  });

  it('names a circle of dependencies, before anything starts', async () => {
    const log: string[] = [];
    const { make } = recorded(log);
    await expect(startParts([make('a', ['c']), make('b', ['a']), make('c', ['b'])])).rejects.toThrow(
      "parts depend on each other in a circle: 'a' → 'c' → 'b' → 'a'",
    );
    expect(log).toEqual([]);
  });

  it('refuses a part listed twice', async () => {
    const { make } = recorded([]);
    await expect(startParts([make('a', []), make('a', [])])).rejects.toThrow("part 'a' is in the list twice");
  });

  it('stops what started, in reverse, when a part fails to start, and rethrows its error', async () => {
    const log: string[] = [];
    const { make } = recorded(log, 'c');
    await expect(startParts([make('a', []), make('b', ['a']), make('c', ['b'])])).rejects.toThrow('c cannot start');
    expect(log).toEqual(['start a with {}', 'start b with {"a":"A"}', 'stop B', 'stop A']);
  });

  it('keeps stopping the others when one stop fails, then throws that failure', async () => {
    const log: string[] = [];
    const started = await startParts([
      definePart({ ref: refs.a, init: () => 'A', stop: () => void log.push('stop a') }),
      definePart({ ref: refs.b, deps: { a: refs.a }, init: ({ a }) => `${a}B`, stop: () => { throw new Error('b would not stop'); } }),
    ]);
    expect(started.get(refs.b)).toBe('AB');
    await expect(started.stop()).rejects.toThrow('b would not stop');
    expect(log).toEqual(['stop a']);
  });
});

describe('parts: drain steps run before any stop', () => {
  /** a ← b ← c, each draining and stopping into `log`; `failAt` fails that part's start, `failDrain` its drain. */
  function drained(log: string[], opts: { failAt?: Id; failDrain?: Id } = {}) {
    const make = (id: Id, dep?: Id) =>
      definePart({
        ref: refs[id],
        deps: dep ? { [dep]: refs[dep] } : {},
        init: (_d, lifecycle) => {
          lifecycle.onDrain(() => {
            log.push(`drain ${id}`);
            if (id === opts.failDrain) throw new Error(`${id} would not drain`);
          });
          if (id === opts.failAt) throw new Error(`${id} cannot start`);
          return id;
        },
        stop: () => void log.push(`stop ${id}`),
      });
    return [make('c', 'b'), make('b', 'a'), make('a')];
  }

  it('runs every drain, the last started first, then every stop in reverse', async () => {
    const log: string[] = [];
    const started = await startParts(drained(log));
    await started.stop();
    expect(log).toEqual(['drain c', 'drain b', 'drain a', 'stop c', 'stop b', 'stop a']);
  });

  it('drains and stops what started when a part fails to start, with the failed part drained too', async () => {
    const log: string[] = [];
    await expect(startParts(drained(log, { failAt: 'b' }))).rejects.toThrow('b cannot start');
    expect(log).toEqual(['drain b', 'drain a', 'stop a']);
  });

  it('keeps draining and stopping when a drain fails, then throws that failure', async () => {
    const log: string[] = [];
    const started = await startParts(drained(log, { failDrain: 'b' }));
    await expect(started.stop()).rejects.toThrow('b would not drain');
    expect(log).toEqual(['drain c', 'drain b', 'drain a', 'stop c', 'stop b', 'stop a']);
  });

  it('types init from the dep refs', async () => {
    const count = partRef<number>('count');
    const label = partRef<string>('label');
    const started = await startParts([
      definePart({ ref: count, init: () => 2 }),
      definePart({ ref: label, deps: { n: count }, init: ({ n }) => `x${n.toFixed(0)}` }),
    ]);
    expect(started.get(label)).toBe('x2');
    // @ts-expect-error -- a value of the wrong type for the ref does not compile
    definePart({ ref: label, init: () => 3 });
    await started.stop();
  });

  it('starts a part that collects a contribution point after every part that needs that point', async () => {
    const log: string[] = [];
    const point = partRef<string[]>('point');
    const contributor = (id: Id) => definePart({ ref: refs[id], deps: { point }, init: ({ point: added }) => (added.push(id), id) });
    const collector = definePart({ ref: partRef<void>('collector'), deps: { point }, collects: point, init: ({ point: added }) => void log.push(`collected ${added.join(',')}`) });
    // Listed first, and needing none of them, the collector still starts after both contributors.
    await startParts([collector, definePart({ ref: point, init: () => [] }), contributor('a'), contributor('b')]);
    expect(log).toEqual(['collected a,b']);
    const needsCollector = definePart({ ref: refs.c, deps: { point, collector: collector.ref }, init: () => 'c' });
    await expect(startParts([collector, definePart({ ref: point, init: () => [] }), needsCollector])).rejects.toThrow("parts depend on each other in a circle: 'collector' → 'c' → 'collector'");
  });
});
