/**
 * The workflow editor's undo history and viewport as the pure functions the page and the canvas run
 * (core/console/client/workflows/editor/history.ts, viewport.ts); the editor itself is driven in
 * Chromium by workflow-editor-browser.test.ts.
 */
import { HISTORY_LIMIT, historyOf, historyReducer, type History, type HistoryAction } from '../../core/console/client/workflows/editor/history';
import { fitView, MAX_ZOOM, MIN_ZOOM, steppedZoom, toGraph, zoomAt, type View } from '../../core/console/client/workflows/editor/viewport';

const run = <T>(h: History<T>, ...actions: HistoryAction<T>[]) => actions.reduce(historyReducer, h);
const commit = <T>(next: T, group?: string): HistoryAction<T> => ({ type: 'commit', next, group });

describe('spec 2 Workflows, the editor: the undo history', () => {
  test('undo and redo walk the steps; a new edit after an undo drops what could be redone', () => {
    let h = run(historyOf('a'), commit('b'), commit('c'));
    expect(h).toMatchObject({ past: ['a', 'b'], present: 'c', future: [] });
    h = run(h, { type: 'undo' }, { type: 'undo' });
    expect(h).toMatchObject({ past: [], present: 'a', future: ['b', 'c'] });
    expect(run(h, { type: 'undo' })).toBe(h);
    h = run(h, { type: 'redo' });
    expect(h).toMatchObject({ past: ['a'], present: 'b', future: ['c'] });
    h = run(h, commit('d'));
    expect(h).toMatchObject({ past: ['a', 'b'], present: 'd', future: [] });
    expect(run(h, { type: 'redo' })).toBe(h);
  });

  test('edits in a row with the same group are one step; another group, an undo or a redo ends it', () => {
    let h = run(historyOf(0), commit(1, 'drag 1'), commit(2, 'drag 1'), commit(3, 'drag 1'));
    expect(h).toMatchObject({ past: [0], present: 3 });
    h = run(h, commit(4, 'drag 2'), commit(5));
    expect(h.past).toEqual([0, 3, 4]);
    h = run(h, { type: 'undo' }, commit(6, 'drag 2'), commit(7, 'drag 2'));
    expect(h).toMatchObject({ past: [0, 3, 4], present: 7 });
    h = run(h, { type: 'undo' }, { type: 'redo' }, commit(8, 'drag 2'));
    expect(h).toMatchObject({ past: [0, 3, 4, 7], present: 8 });
    // Ungrouped edits (an arrow key) are a step each, and an edit that changes nothing is none.
    expect(run(historyOf(0), commit(1), commit(2)).past).toEqual([0, 1]);
    const same = historyOf('x');
    expect(run(same, commit('x'))).toBe(same);
  });

  test(`bounded: the oldest of more than ${HISTORY_LIMIT} steps is dropped`, () => {
    let h = historyOf(0);
    for (let i = 1; i <= HISTORY_LIMIT + 5; i++) h = run(h, commit(i));
    expect(h.past).toHaveLength(HISTORY_LIMIT);
    expect(h.past[0]).toBe(5);
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) h = run(h, { type: 'undo' });
    expect(h.present).toBe(5);
  });

  test('reset starts afresh; rebase renames every step and keeps them', () => {
    const h = run(historyOf('new-1'), commit('new-1 moved'), commit('new-1 moved twice'), { type: 'undo' });
    expect(run(h, { type: 'reset', present: 'id-9' })).toEqual({ past: [], present: 'id-9', future: [], group: null });
    const rebased = run(h, { type: 'rebase', present: 'id-9 moved', rename: (s) => s.replace('new-1', 'id-9') });
    expect(rebased).toMatchObject({ past: ['id-9'], present: 'id-9 moved', future: ['id-9 moved twice'] });
  });
});

describe('spec 2 Workflows, the editor: the canvas viewport', () => {
  const at = (v: View, p: { x: number; y: number }) => ({ x: v.x + p.x * v.zoom, y: v.y + p.y * v.zoom });

  test('zooming at a point keeps the graph point under it, within the bounds', () => {
    const v = { zoom: 1, x: 30, y: -20 };
    const z = zoomAt(v, 0.5, { x: 400, y: 300 });
    expect(z.zoom).toBe(0.5);
    expect(at(z, toGraph(v, { x: 400, y: 300 }))).toEqual({ x: 400, y: 300 });
    expect(zoomAt(v, 10, { x: 0, y: 0 }).zoom).toBe(MAX_ZOOM);
    expect(zoomAt(v, 0.01, { x: 0, y: 0 }).zoom).toBe(MIN_ZOOM);
  });

  test('steps follow the ladder from any level and stop at the bounds', () => {
    expect(steppedZoom(1, 1)).toBe(1.1);
    expect(steppedZoom(1, -1)).toBe(0.9);
    expect(steppedZoom(0.8, -1)).toBe(0.75);
    expect(steppedZoom(MIN_ZOOM, -1)).toBe(MIN_ZOOM);
    expect(steppedZoom(MAX_ZOOM, 1)).toBe(MAX_ZOOM);
  });

  test('fit shows every box inside the viewport, centred, never above 100%', () => {
    const boxes = [{ x: 100, y: 50, width: 180, height: 64 }, { x: 2000, y: 900, width: 180, height: 64 }];
    const size = { width: 1000, height: 600 };
    const v = fitView(boxes, size);
    expect(v.zoom).toBeLessThan(1);
    for (const b of boxes) {
      const [tl, br] = [at(v, b), at(v, { x: b.x + b.width, y: b.y + b.height })];
      expect(tl.x).toBeGreaterThanOrEqual(0);
      expect(tl.y).toBeGreaterThanOrEqual(0);
      expect(br.x).toBeLessThanOrEqual(size.width);
      expect(br.y).toBeLessThanOrEqual(size.height);
    }
    expect(fitView([{ x: 500, y: 500, width: 180, height: 64 }], size)).toEqual({ zoom: 1, x: 410 - 500, y: 268 - 500 });
    expect(fitView([], size)).toEqual({ zoom: 1, x: 0, y: 0 });
  });
});
