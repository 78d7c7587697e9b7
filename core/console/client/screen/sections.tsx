/**
 * The 13 web section types (spec 1; camera-scanner is mobile only and shows a note). Per-type fields
 * other than list and stats-row are the spec's "not shown"; ours are listed in the console README.
 * Each section renders inside its own boundary: an unknown type, a section failing its shape check,
 * or one whose rendering throws shows a placeholder naming the problem, and the rest of the screen
 * works (bad data from one module never blanks a page).
 */
import { Component, type ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ErrorBox } from '../dialogs';
import { Icon } from '../icons';
import { runAction, type ActionHost } from './actions';
import { Chart } from './chart';
import { FieldValue, type FieldDef } from './fields';
import { FormSection } from './form-section';
import { ListSection } from './list-section';
import { useSectionData } from './section-data';
import { fill, isObject, valueAt, type Row } from './values';

export const WEB_SECTION_TYPES = ['stats-row', 'list', 'grid', 'detail-fields', 'form', 'card', 'chart', 'timeline', 'actions-bar', 'empty-state', 'banner', 'tabs', 'image-gallery'] as const;

export interface SectionProps { screenId: string; section: Row; params: Record<string, string>; host: ActionHost; tick: number }

const arrayOf = (v: unknown) => v === undefined || Array.isArray(v);
/** What each type needs to render at all; a failure is named in the placeholder. */
const SHAPES: Record<string, (s: Row) => string | undefined> = {
  list: (s) => (arrayOf(s.fields) && arrayOf(s.filters) ? undefined : 'fields and filters must be arrays'),
  grid: (s) => (arrayOf(s.fields) ? undefined : 'fields must be an array'),
  'detail-fields': (s) => (arrayOf(s.fields) ? undefined : 'fields must be an array'),
  form: (s) => (Array.isArray(s.fields) ? undefined : 'a form needs a fields array'),
  timeline: (s) => (arrayOf(s.fields) ? undefined : 'fields must be an array'),
  'actions-bar': (s) => (Array.isArray(s.actions) ? undefined : 'an actions bar needs an actions array'),
  tabs: (s) => (Array.isArray(s.tabs) && s.tabs.every((t) => isObject(t) && Array.isArray(t.sections)) ? undefined : 'tabs needs tabs[] each with sections[]'),
  'stats-row': (s) => (arrayOf(s.items) ? undefined : 'items must be an array'),
  chart: (s) => (s.chart_type === undefined || ['bar', 'line', 'pie'].includes(String(s.chart_type)) ? undefined : `chart_type must be bar, line or pie, not "${String(s.chart_type)}"`),
};

function Placeholder({ section, reason }: { section: Row; reason: string }) {
  return (
    <div class="placeholder" role="note" data-placeholder={String(section.id ?? '')}>
      <strong>This part of the screen cannot be shown.</strong>
      <p>{reason}</p>
    </div>
  );
}

class Boundary extends Component<{ section: Row; children: ComponentChildren }, { error?: Error }> {
  override state: { error?: Error } = {};
  override componentDidCatch(error: Error) {
    this.setState({ error });
  }
  override render() {
    if (this.state.error) return <Placeholder section={this.props.section} reason={`Section "${String(this.props.section.id)}" failed to render: ${this.state.error.message}`} />;
    return this.props.children;
  }
}

export function Sections({ sections, ...rest }: Omit<SectionProps, 'section'> & { sections: unknown }) {
  if (!Array.isArray(sections)) return <Placeholder section={{}} reason="The screen's sections are not a list." />;
  return <>{sections.map((s, i) => <SectionFrame key={isObject(s) ? String(s.id ?? i) : i} {...rest} section={isObject(s) ? s : { id: `#${i}`, type: '(not an object)' }} />)}</>;
}

function SectionFrame(props: SectionProps) {
  const { section } = props;
  const type = String(section.type);
  const title = typeof section.title === 'string' ? section.title : undefined;
  let content: ComponentChildren;
  if (type === 'camera-scanner') content = <p class="muted">The camera scanner is available in the mobile app.</p>;
  else if (!(WEB_SECTION_TYPES as readonly string[]).includes(type)) content = <Placeholder section={section} reason={`Unknown section type "${type}" (section "${String(section.id)}"). The module may need a newer console.`} />;
  else {
    const problem = SHAPES[type]?.(section);
    content = problem ? <Placeholder section={section} reason={`Section "${String(section.id)}" (${type}) is malformed: ${problem}.`} /> : <Boundary section={section}><SectionBody {...props} /></Boundary>;
  }
  return (
    <section class={`section section-${type}`} data-section={String(section.id)} data-type={type} aria-label={title ?? undefined}>
      {title && type !== 'card' ? <h2 class="section-title">{title}</h2> : null}
      {content}
    </section>
  );
}

function SectionBody(props: SectionProps) {
  switch (String(props.section.type)) {
    case 'list': return <ListSection {...props} />;
    case 'grid': return <ListSection {...props} grid />;
    case 'tabs': return <Tabs {...props} />;
    case 'form': return <FormSection section={props.section} row={props.params} host={props.host} />;
    case 'actions-bar': return <ActionsBar section={props.section} row={props.params} host={props.host} />;
    case 'empty-state': return <EmptyState section={props.section} row={props.params} host={props.host} />;
    case 'banner': return <Banner section={props.section} row={props.params} host={props.host} />;
    default: return <DataSection {...props} />;
  }
}

/** Types that show a data object or item list: stats-row, detail-fields, card, chart, timeline, image-gallery. */
function DataSection(props: SectionProps) {
  const { section, params, host } = props;
  const { data, error, loading } = useSectionData(props.screenId, section, params, props.tick);
  if (error) return <ErrorBox error={error} title={`Could not load ${String(section.title ?? section.id)}`} />;
  if (loading) return <p class="muted" aria-busy="true">Loading…</p>;
  const row: Row = isObject(data) ? { ...params, ...data } : { ...params };
  const fields = (section.fields as FieldDef[] | undefined) ?? [];
  switch (String(section.type)) {
    case 'stats-row': {
      const items = (section.items as Row[] | undefined) ?? (Array.isArray(data) ? (data as Row[]) : []);
      return (
        <ul class="stats" data-stats>
          {items.map((it, i) => {
            const value = it.key !== undefined && isObject(data) ? valueAt(data, String(it.key)) : it.value;
            return (
              <li key={String(it.key ?? it.label ?? i)} class="stat">
                <Icon name={it.icon as string | undefined} />
                <span class="stat-label">{String(it.label ?? it.key ?? '')}</span>
                <span class="stat-value"><FieldValue field={{ key: 'v', type: String(it.type ?? 'text'), currency: it.currency as string | undefined, prefix: it.prefix as string | undefined, suffix: it.suffix as string | undefined }} row={{ v: value }} /></span>
              </li>
            );
          })}
        </ul>
      );
    }
    case 'detail-fields':
      return (
        <dl class="details">
          {fields.map((f) => (
            <div key={f.key} class="detail">
              <dt>{f.label ?? f.key}</dt>
              <dd><FieldValue field={f} row={row} /></dd>
            </div>
          ))}
        </dl>
      );
    case 'card': {
      const card = fill(section, row);
      const tap = isObject(section.action) ? section.action : undefined;
      const inner = (
        <>
          {card.image ? <img class="card-image" src={String(card.image)} alt={String(card.image_alt ?? '')} /> : null}
          <div class="card-text">
            {card.title ? <h2 class="card-title">{String(card.title)}</h2> : null}
            {card.subtitle ? <p class="muted">{String(card.subtitle)}</p> : null}
            {card.body ? <p>{String(card.body)}</p> : null}
            {fields.length ? <dl class="details">{fields.map((f) => <div key={f.key} class="detail"><dt>{f.label ?? f.key}</dt><dd><FieldValue field={f} row={row} /></dd></div>)}</dl> : null}
          </div>
        </>
      );
      return tap ? <button type="button" class="card card-button" onClick={() => runAction(tap, row, host)}>{inner}</button> : <div class="card">{inner}</div>;
    }
    case 'chart':
      return <Chart section={section} data={Array.isArray(section.points) ? section.points : isObject(data) && Array.isArray(data.points) ? data.points : data} />;
    case 'timeline': {
      const items = Array.isArray(data) ? (data as Row[]) : [];
      const tap = isObject(section.on_tap) ? section.on_tap : undefined;
      const [head, ...rest] = fields;
      const timeKey = String(section.time_key ?? 'created_at');
      if (!items.length) return <p class="muted">{String(section.empty_message ?? 'No events yet.')}</p>;
      return (
        <ol class="timeline">
          {items.map((it, i) => {
            const body = (
              <>
                <span class="dot" aria-hidden="true" />
                <span class="tl-head">{head ? <FieldValue field={head} row={it} /> : null}</span>
                {rest.map((f) => <span key={f.key} class="tl-meta"><span class="cell-label">{f.label ?? f.key}</span> <FieldValue field={f} row={it} /></span>)}
                {valueAt(it, timeKey) !== undefined ? <FieldValue field={{ key: timeKey, type: 'datetime' }} row={it} /> : null}
              </>
            );
            return <li key={String(it.id ?? i)}>{tap ? <button type="button" class="row-button" onClick={() => runAction(tap, it, host)}>{body}</button> : body}</li>;
          })}
        </ol>
      );
    }
    case 'image-gallery': {
      const raw = (section.images as unknown[] | undefined) ?? (Array.isArray(data) ? data : isObject(data) && Array.isArray(data.images) ? data.images : []);
      const key = String(section.image_key ?? 'url');
      const images = raw.map((img) => (typeof img === 'string' ? { url: img, alt: '' } : { url: String(valueAt(img, key) ?? ''), alt: String((img as Row).alt ?? (img as Row).caption ?? '') }));
      return <Gallery images={images} />;
    }
    default:
      return null;
  }
}

function Gallery({ images }: { images: Array<{ url: string; alt: string }> }) {
  const [open, setOpen] = useState<number | null>(null);
  return (
    <div class="gallery">
      {images.map((img, i) => (
        <button key={img.url + i} type="button" class="thumb" aria-label={`Open image ${i + 1}${img.alt ? `: ${img.alt}` : ''}`} onClick={() => setOpen(open === i ? null : i)} aria-pressed={open === i}>
          <img src={img.url} alt={img.alt} loading="lazy" />
        </button>
      ))}
      {open !== null && images[open] ? <img class="gallery-large" src={images[open].url} alt={images[open].alt} /> : null}
    </div>
  );
}

function ActionsBar({ section, row, host }: { section: Row; row: Row; host: ActionHost }) {
  const actions = (section.actions as Row[]).filter(isObject);
  return (
    <div class="actions-bar" role="toolbar" aria-label={String(section.title ?? 'Actions')}>
      {actions.map((a, i) => (
        <button key={String(a.id ?? i)} type="button" class={String(a.style ?? 'secondary')} data-action={String(a.id ?? '')} onClick={() => runAction(a.action ?? a, row, host)}>
          {a.icon ? <Icon name={String(a.icon)} /> : null} {fill(String(a.label ?? a.id ?? 'Run'), row)}
        </button>
      ))}
    </div>
  );
}

function EmptyState({ section, row, host }: { section: Row; row: Row; host: ActionHost }) {
  const action = isObject(section.action) ? section.action : undefined;
  return (
    <div class="empty-state">
      <Icon name={String(section.icon ?? 'package')} size={40} />
      <p class="empty-title">{String(section.title_text ?? section.message_title ?? section.heading ?? 'Nothing here yet')}</p>
      {section.message ? <p class="muted">{String(section.message)}</p> : null}
      {action ? <button type="button" class="primary" onClick={() => runAction(action, row, host)}>{String(section.action_label ?? action.label ?? 'Start')}</button> : null}
    </div>
  );
}

const BANNER_ICONS: Record<string, string> = { info: 'info', warning: 'alert-triangle', error: 'alert-triangle', success: 'check-circle' };

function Banner({ section, row, host }: { section: Row; row: Row; host: ActionHost }) {
  const variant = ['info', 'warning', 'error', 'success'].includes(String(section.variant)) ? String(section.variant) : 'info';
  const action = isObject(section.action) ? section.action : undefined;
  return (
    <div class={`banner banner-${variant}`} role={variant === 'error' || variant === 'warning' ? 'alert' : 'status'}>
      <Icon name={BANNER_ICONS[variant]} />
      <div>
        {section.heading ? <strong>{fill(String(section.heading), row)}</strong> : null}
        {section.message ? <p>{fill(String(section.message), row)}</p> : null}
      </div>
      {action ? <button type="button" class="secondary" onClick={() => runAction(action, row, host)}>{String(section.action_label ?? action.label ?? 'Open')}</button> : null}
    </div>
  );
}

function Tabs(props: SectionProps) {
  const tabs = props.section.tabs as Row[];
  const [active, setActive] = useState(0);
  const base = `tabs-${String(props.section.id)}`;
  const onKey = (e: KeyboardEvent) => {
    const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!d) return;
    const next = (active + d + tabs.length) % tabs.length;
    setActive(next);
    document.getElementById(`${base}-tab-${next}`)?.focus();
  };
  return (
    <div class="tabs">
      <div role="tablist" aria-label={String(props.section.title ?? 'Tabs')} onKeyDown={onKey}>
        {tabs.map((t, i) => (
          <button key={String(t.id ?? i)} id={`${base}-tab-${i}`} role="tab" type="button" aria-selected={i === active} aria-controls={`${base}-panel`} tabIndex={i === active ? 0 : -1} onClick={() => setActive(i)}>
            {String(t.label ?? t.title ?? t.id ?? `Tab ${i + 1}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${active}`}>
        <Sections {...props} sections={tabs[active]?.sections} />
      </div>
    </div>
  );
}
