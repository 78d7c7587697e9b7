/**
 * A bar chart in plain SVG (no chart library: the console adds no dependency), one bar per point,
 * scaled to the largest value; a point without a value (nothing measured that period) has no bar.
 * Each bar carries its label and value as data attributes and a <title>, for tests and screen readers.
 */
export interface ChartPoint {
  label: string;
  value: number | null;
}

const W = 720;
const H = 240;
const PAD = { left: 56, right: 8, top: 12, bottom: 36 };
/** At most this many x labels, so a month of days stays legible. */
const MAX_LABELS = 12;

export function BarChart({ points, title, format }: { points: ChartPoint[]; title: string; format: (v: number) => string }) {
  const max = Math.max(0, ...points.map((p) => p.value ?? 0));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = points.length ? innerW / points.length : innerW;
  const every = Math.max(1, Math.ceil(points.length / MAX_LABELS));
  const y = (v: number) => PAD.top + innerH - (max ? (v / max) * innerH : 0);
  return (
    <svg class="bar-chart" data-chart viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
      <title>{title}</title>
      <line x1={PAD.left} y1={PAD.top + innerH} x2={W - PAD.right} y2={PAD.top + innerH} class="axis" />
      <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={PAD.top + innerH} class="axis" />
      <text x={PAD.left - 6} y={PAD.top + 4} class="tick" text-anchor="end" data-y-max>{format(max)}</text>
      <text x={PAD.left - 6} y={PAD.top + innerH} class="tick" text-anchor="end">{format(0)}</text>
      {points.map((p, i) => {
        const x = PAD.left + i * step;
        const top = p.value === null ? PAD.top + innerH : y(p.value);
        return (
          <g key={p.label}>
            {p.value !== null && (
              <rect class="bar" data-bar={p.label} data-value={p.value} x={x + step * 0.15} y={top} width={Math.max(1, step * 0.7)} height={PAD.top + innerH - top}>
                <title>{`${p.label}: ${format(p.value)}`}</title>
              </rect>
            )}
            {i % every === 0 && <text x={x + step / 2} y={H - PAD.bottom + 16} class="tick" text-anchor="middle">{p.label.slice(5)}</text>}
          </g>
        );
      })}
    </svg>
  );
}
