/**
 * Field types for list items and detail rows (spec 1): text and number (prefix, suffix), currency
 * (currency code), date, datetime, relative-time, badge (badge_colors: value → hex, resolved to one of
 * success, warning, destructive, secondary), image (image_size sm, md, lg), boolean, percent, weight
 * (suffix, default kg), color. A type the renderer lacks shows its raw value, marked, so the row
 * still reads.
 */
import { valueAt, type Row } from './values';

export interface FieldDef {
  key: string;
  label?: string;
  type?: string;
  prefix?: string;
  suffix?: string;
  currency?: string;
  badge_colors?: Record<string, string>;
  image_size?: 'sm' | 'md' | 'lg';
}

export const FIELD_TYPES = ['text', 'number', 'currency', 'date', 'datetime', 'relative-time', 'badge', 'image', 'boolean', 'percent', 'weight', 'color'] as const;

const asNumber = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};
const asDate = (v: unknown): Date | undefined => {
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
};

export function relativeTime(d: Date, now = Date.now()): string {
  const s = Math.round((d.getTime() - now) / 1000);
  const fmt = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const abs = Math.abs(s);
  if (abs < 60) return fmt.format(s, 'second');
  if (abs < 3600) return fmt.format(Math.round(s / 60), 'minute');
  if (abs < 86400) return fmt.format(Math.round(s / 3600), 'hour');
  if (abs < 2592000) return fmt.format(Math.round(s / 86400), 'day');
  if (abs < 31536000) return fmt.format(Math.round(s / 2592000), 'month');
  return fmt.format(Math.round(s / 31536000), 'year');
}

/** A hex colour resolved to one of the four badge variants by its hue (spec 1, badge). */
export function badgeVariant(hex: string | undefined, value: string): 'success' | 'warning' | 'destructive' | 'secondary' {
  const m = hex ? /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim()) : null;
  if (!m) {
    if (/^(delivered|paid|active|completed|success|succeeded|resolved|installed)$/i.test(value)) return 'success';
    if (/^(pending|processing|queued|running|partial|open|invited)$/i.test(value)) return 'warning';
    if (/^(cancelled|canceled|failed|error|refunded|suspended|rejected)$/i.test(value)) return 'destructive';
    return 'secondary';
  }
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x, 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  if (max - min < 0.15) return 'secondary';
  let h = 0;
  if (max === r) h = ((g - b) / (max - min)) * 60;
  else if (max === g) h = (2 + (b - r) / (max - min)) * 60;
  else h = (4 + (r - g) / (max - min)) * 60;
  if (h < 0) h += 360;
  if (h < 20 || h >= 330) return 'destructive';
  if (h < 65) return 'warning';
  if (h < 170) return 'success';
  return 'secondary';
}

export function FieldValue({ field, row }: { field: FieldDef; row: Row }) {
  const v = valueAt(row, field.key);
  const type = field.type ?? 'text';
  const cls = `field field-${type}`;
  if (v === undefined || v === null || v === '') return <span class={`${cls} field-empty`}>—</span>;
  const affix = (s: string) => `${field.prefix ?? ''}${s}${field.suffix ?? ''}`;
  switch (type) {
    case 'text':
      return <span class={cls}>{affix(String(v))}</span>;
    case 'number': {
      const n = asNumber(v);
      return <span class={cls}>{affix(n === undefined ? String(v) : n.toLocaleString())}</span>;
    }
    case 'currency': {
      const n = asNumber(v);
      if (n === undefined) return <span class={cls}>{String(v)}</span>;
      try {
        return <span class={cls}>{new Intl.NumberFormat(undefined, { style: 'currency', currency: field.currency || 'INR' }).format(n)}</span>;
      } catch {
        return <span class={cls}>{`${field.currency ?? ''} ${n.toFixed(2)}`}</span>;
      }
    }
    case 'date':
    case 'datetime':
    case 'relative-time': {
      const d = asDate(v);
      if (!d) return <span class={cls}>{String(v)}</span>;
      const text = type === 'date' ? d.toLocaleDateString() : type === 'datetime' ? d.toLocaleString() : relativeTime(d);
      return <time class={cls} dateTime={d.toISOString()} title={d.toLocaleString()}>{text}</time>;
    }
    case 'badge': {
      const s = String(v);
      return <span class={`${cls} badge badge-${badgeVariant(field.badge_colors?.[s], s)}`}>{s.replace(/_/g, ' ')}</span>;
    }
    case 'image':
      return <img class={`${cls} image-${field.image_size ?? 'md'}`} src={String(v)} alt={field.label ?? field.key} loading="lazy" />;
    case 'boolean':
      return <span class={cls} aria-label={v ? 'yes' : 'no'}>{v ? '✓ Yes' : '✗ No'}</span>;
    case 'percent': {
      const n = asNumber(v);
      return <span class={cls}>{n === undefined ? String(v) : `${n.toLocaleString(undefined, { maximumFractionDigits: 2 })}%`}</span>;
    }
    case 'weight': {
      const n = asNumber(v);
      return <span class={cls}>{`${n === undefined ? String(v) : n.toLocaleString()} ${field.suffix ?? 'kg'}`}</span>;
    }
    case 'color':
      return (
        <span class={cls}>
          <span class="swatch" style={{ background: String(v) }} aria-hidden="true" /> {String(v)}
        </span>
      );
    default:
      return <span class={`${cls} field-unknown`} title={`Unknown field type "${type}"`}>{String(typeof v === 'object' ? JSON.stringify(v) : v)} <small>(unknown field type “{type}”)</small></span>;
  }
}
