/** The chart section: bar (every client), line and pie (web only; spec 1), drawn as SVG with a data table for screen readers. */
import { valueAt, type Row } from './values';

const COLOURS = ['#2563eb', '#16a34a', '#d97706', '#dc2626', '#7c3aed', '#0891b2', '#db2777', '#4b5563'];

export function Chart({ section, data }: { section: Row; data: unknown }) {
  const kind = String(section.chart_type ?? section.kind ?? 'bar');
  const xKey = String(section.x_key ?? section.label_key ?? 'label');
  const yKey = String(section.y_key ?? section.value_key ?? 'value');
  const items = (Array.isArray(data) ? data : []) as Row[];
  const points = items.map((r) => ({ label: String(valueAt(r, xKey) ?? ''), value: Number(valueAt(r, yKey)) || 0 }));
  const max = Math.max(1, ...points.map((p) => p.value));
  const W = 320;
  const H = 160;
  let body;
  if (kind === 'pie') {
    const sum = points.reduce((a, p) => a + Math.max(0, p.value), 0) || 1;
    let angle = -Math.PI / 2;
    body = points.map((p, i) => {
      const a = (Math.max(0, p.value) / sum) * Math.PI * 2;
      const [x1, y1] = [80 + 70 * Math.cos(angle), 80 + 70 * Math.sin(angle)];
      angle += a;
      const [x2, y2] = [80 + 70 * Math.cos(angle), 80 + 70 * Math.sin(angle)];
      const d = a >= Math.PI * 2 - 1e-6 ? 'M80 10a70 70 0 1 0 .01 0z' : `M80 80L${x1} ${y1}A70 70 0 ${a > Math.PI ? 1 : 0} 1 ${x2} ${y2}z`;
      return <path key={p.label} d={d} fill={COLOURS[i % COLOURS.length]}><title>{`${p.label}: ${p.value}`}</title></path>;
    });
  } else if (kind === 'line') {
    const step = points.length > 1 ? W / (points.length - 1) : 0;
    const pts = points.map((p, i) => `${i * step},${H - (p.value / max) * (H - 10)}`).join(' ');
    body = [<polyline key="l" points={pts} fill="none" stroke={COLOURS[0]} stroke-width="2" />, ...points.map((p, i) => <circle key={p.label} cx={i * step} cy={H - (p.value / max) * (H - 10)} r="3" fill={COLOURS[0]}><title>{`${p.label}: ${p.value}`}</title></circle>)];
  } else {
    const bw = points.length ? W / points.length : W;
    body = points.map((p, i) => {
      const h = (p.value / max) * (H - 10);
      return <rect key={p.label} x={i * bw + 4} y={H - h} width={Math.max(2, bw - 8)} height={h} fill={COLOURS[0]}><title>{`${p.label}: ${p.value}`}</title></rect>;
    });
  }
  return (
    <figure class={`chart chart-${kind}`} data-chart={kind}>
      <svg viewBox={kind === 'pie' ? '0 0 160 160' : `-4 0 ${W + 8} ${H}`} role="img" aria-label={`${kind} chart: ${points.map((p) => `${p.label} ${p.value}`).join(', ')}`} preserveAspectRatio="xMidYMid meet">
        {body}
      </svg>
      <table class="sr-only">
        <tbody>{points.map((p) => <tr key={p.label}><th>{p.label}</th><td>{p.value}</td></tr>)}</tbody>
      </table>
      {kind === 'pie' ? (
        <figcaption class="legend">{points.map((p, i) => <span key={p.label}><i style={{ background: COLOURS[i % COLOURS.length] }} />{p.label}</span>)}</figcaption>
      ) : (
        <figcaption class="axis">{points.map((p) => <span key={p.label}>{p.label}</span>)}</figcaption>
      )}
    </figure>
  );
}
