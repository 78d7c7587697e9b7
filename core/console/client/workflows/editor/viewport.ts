/**
 * The canvas's viewport: how graph coordinates (the saved positions, canvas pixels at 100%) map to
 * the screen. A point of the graph is shown at `pan + point * zoom` from the viewport's top-left;
 * zoom stays within MIN_ZOOM..MAX_ZOOM. Pure, so drops and drawn connections land under the pointer
 * at any zoom by the same arithmetic the canvas draws with (core/console/README.md, Workflow editor).
 */

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 2;
/** The levels the buttons and the +/- keys step through (a browser's zoom ladder); the wheel zooms smoothly. */
export const ZOOM_LEVELS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2];

export interface View {
  zoom: number;
  x: number;
  y: number;
}
export interface Point {
  x: number;
  y: number;
}
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const HOME: View = { zoom: 1, x: 0, y: 0 };

/** Whole percents: the level shown is the level drawn. */
export const clampZoom = (z: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(z * 100) / 100));

/** The next level of the ladder above (`1`) or below (`-1`) a zoom, or the zoom itself at a bound. */
export function steppedZoom(zoom: number, direction: 1 | -1): number {
  const next = direction > 0 ? ZOOM_LEVELS.find((l) => l > zoom + 0.001) : ZOOM_LEVELS.findLast((l) => l < zoom - 0.001);
  return next ?? zoom;
}

/** A point of the viewport (pixels from its top-left) in graph coordinates. */
export const toGraph = (v: View, p: Point): Point => ({ x: (p.x - v.x) / v.zoom, y: (p.y - v.y) / v.zoom });

/** Zoomed to `to` around a point of the viewport, which keeps showing the same graph point. */
export function zoomAt(v: View, to: number, at: Point): View {
  const zoom = clampZoom(to);
  const g = toGraph(v, at);
  return { zoom, x: at.x - g.x * zoom, y: at.y - g.y * zoom };
}

export const panBy = (v: View, dx: number, dy: number): View => ({ ...v, x: v.x + dx, y: v.y + dy });

/**
 * Every box in a viewport of `size`, centred, with `margin` pixels around; never above 100% (a
 * small graph is not blown up) nor below MIN_ZOOM (a huge one then shows its middle).
 */
export function fitView(boxes: Box[], size: { width: number; height: number }, margin = 40): View {
  if (!boxes.length) return HOME;
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  const fit = Math.min((size.width - 2 * margin) / (right - left), (size.height - 2 * margin) / (bottom - top), 1);
  // Rounded down, so the rounding never makes the graph larger than the space it was fitted to.
  const zoom = Math.max(MIN_ZOOM, Math.floor(fit * 100) / 100);
  return { zoom, x: (size.width - (right - left) * zoom) / 2 - left * zoom, y: (size.height - (bottom - top) * zoom) / 2 - top * zoom };
}
