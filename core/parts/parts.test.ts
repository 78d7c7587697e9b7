import { partsOf, startParts } from '.';

interface Values {
  a: string;
  b: string;
  c: string;
}

const { part } = partsOf<Values>();

/** Parts that write what they do into `log`. */
function recorded(log: string[], fail?: keyof Values) {
  const make = (id: keyof Values, deps: Array<keyof Values>) =>
    part({
      id,
      deps,
      init: (d: Partial<Values>) => {
        if (id === fail) throw new Error(`${id} cannot start`);
        log.push(`start ${id} with ${JSON.stringify(d)}`);
        return id.toUpperCase();
      },
      stop: (value: string) => void log.push(`stop ${value}`),
    });
  return { make };
}

describe('parts: start in dependency order, stop in reverse', () => {
  it('starts each part after its deps, passing exactly their values, and stops in reverse', async () => {
    const log: string[] = [];
    const { make } = recorded(log);
    // Listed out of order: c needs a and b, b needs a.
    const started = await startParts<Values>([make('c', ['a', 'b']), make('b', ['a']), make('a', [])]);
    expect(started.values).toEqual({ a: 'A', b: 'B', c: 'C' });
    await started.stop();
    expect(log).toEqual(['start a with {}', 'start b with {"a":"A"}', 'start c with {"a":"A","b":"B"}', 'stop C', 'stop B', 'stop A']);
  });

  it('names a dependency missing from the list, before anything starts', async () => {
    const log: string[] = [];
    const { make } = recorded(log);
    await expect(startParts<Values>([make('a', []), make('c', ['b'])])).rejects.toThrow("part 'c' needs 'b', which is not in the list");
    expect(log).toEqual([]);
  });

  it('names a circle of dependencies, before anything starts', async () => {
    const log: string[] = [];
    const { make } = recorded(log);
    await expect(startParts<Values>([make('a', ['c']), make('b', ['a']), make('c', ['b'])])).rejects.toThrow(
      "parts depend on each other in a circle: 'a' → 'c' → 'b' → 'a'",
    );
    expect(log).toEqual([]);
  });

  it('refuses a part listed twice', async () => {
    const { make } = recorded([]);
    await expect(startParts<Values>([make('a', []), make('a', [])])).rejects.toThrow("part 'a' is in the list twice");
  });

  it('stops what started, in reverse, when a part fails to start, and rethrows its error', async () => {
    const log: string[] = [];
    const { make } = recorded(log, 'c');
    await expect(startParts<Values>([make('a', []), make('b', ['a']), make('c', ['b'])])).rejects.toThrow('c cannot start');
    expect(log).toEqual(['start a with {}', 'start b with {"a":"A"}', 'stop B', 'stop A']);
  });

  it('keeps stopping the others when one stop fails, then throws that failure', async () => {
    const log: string[] = [];
    const started = await startParts<Values>([
      part({ id: 'a', deps: [], init: () => 'A', stop: () => void log.push('stop a') }),
      part({ id: 'b', deps: ['a'], init: ({ a }) => `${a}B`, stop: () => { throw new Error('b would not stop'); } }),
    ]);
    expect(started.values.b).toBe('AB');
    await expect(started.stop()).rejects.toThrow('b would not stop');
    expect(log).toEqual(['stop a']);
  });
});
