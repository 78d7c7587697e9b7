/**
 * The list section (spec 1, List section fields): `fields[]`, `searchable` (debounced server-side
 * search), `filters[]` (selects whose values go to the data endpoint by key), `pagination` (Load
 * More), `on_tap` (the action run when a row is activated; rows are buttons, so keyboard users reach
 * and run them). The grid section shares the loading and the tap.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorBox } from '../dialogs';
import { FieldValue, type FieldDef } from './fields';
import { fetchSection } from './section-data';
import { runAction, type ActionHost } from './actions';
import { isObject, type Row } from './values';

export const SEARCH_DEBOUNCE_MS = 300;
const PER_PAGE = 20;

interface Filter { key: string; label?: string; type?: string; options?: Array<{ label: string; value: string }> }

interface Props { screenId: string; section: Row; params: Record<string, string>; host: ActionHost; tick: number; grid?: boolean }

export function ListSection({ screenId, section, params, host, tick, grid }: Props) {
  const fields = (section.fields as FieldDef[] | undefined) ?? [];
  const filters = ((section.filters as Filter[] | undefined) ?? []).filter((f) => isObject(f) && typeof f.key === 'string');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  // A filter without an empty option (e.g. sort) starts at its first option, which the server also takes by default.
  const [chosen, setChosen] = useState<Record<string, string>>(() => Object.fromEntries(filters.filter((f) => f.options?.length && !f.options.some((o) => o.value === '')).map((f) => [f.key, f.options![0].value])));
  const [rows, setRows] = useState<Row[]>(Array.isArray(section.items) ? (section.items as Row[]) : []);
  const [page, setPage] = useState(1);
  const [more, setMore] = useState(false);
  const [total, setTotal] = useState<number | undefined>();
  const [loading, setLoading] = useState(!Array.isArray(section.items));
  const [error, setError] = useState<unknown>();
  const timer = useRef<number>();
  const inline = Array.isArray(section.items);
  // The page size: the URL's (`?per_page=50`), the section's, or 20 (the server caps it at 50, spec 1 Limits).
  const perPage = Number(params.per_page) || Number(section.per_page) || PER_PAGE;

  const load = (p: number) => {
    if (inline) return;
    setLoading(true);
    setError(undefined);
    fetchSection(screenId, String(section.id), { ...params, ...chosen, search: query || undefined, page: p, per_page: perPage }).then(
      (res) => {
        const items = Array.isArray(res.data) ? (res.data as Row[]) : [];
        setRows((old) => (p === 1 ? items : [...old, ...items]));
        setPage(p);
        setMore(Boolean(res.meta?.has_more));
        setTotal(res.meta?.total);
        setLoading(false);
      },
      (err: unknown) => {
        setError(err);
        setLoading(false);
      },
    );
  };
  useEffect(() => load(1), [screenId, section.id, query, JSON.stringify(chosen), JSON.stringify(params), tick]);
  // A performance mark once the first page is on screen and its handlers attached (effects run after
  // the paint): what `npm run bench -- web` reads as time to interactive.
  const marked = useRef(false);
  useEffect(() => {
    if (loading || marked.current) return;
    marked.current = true;
    performance.mark(`mandi:section-ready:${String(section.id)}`);
  }, [loading]);

  const onSearch = (value: string) => {
    setSearch(value);
    clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setQuery(value.trim()), SEARCH_DEBOUNCE_MS);
  };
  const label = String(section.title ?? section.id);
  const tap = isObject(section.on_tap) ? section.on_tap : undefined;
  const columns = Math.min(6, Math.max(1, Number(section.columns) || 2));

  return (
    <div class="list-section">
      {(section.searchable || filters.length > 0) && (
        <div class="list-tools" role="search">
          {Boolean(section.searchable) && (
            <label class="field-label">
              <span class="sr-only">Search {label}</span>
              <input type="search" placeholder={String(section.search_placeholder ?? 'Search…')} value={search} onInput={(e) => onSearch((e.target as HTMLInputElement).value)} data-search={section.id} />
            </label>
          )}
          {filters.map((f) => (
            <label key={f.key} class="field-label">
              <span>{f.label ?? f.key}</span>
              <select data-filter={f.key} value={chosen[f.key] ?? ''} onChange={(e) => setChosen({ ...chosen, [f.key]: (e.target as HTMLSelectElement).value })}>
                {!f.options?.length && <option value="">Any</option>}
                {(f.options ?? []).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
              </select>
            </label>
          ))}
        </div>
      )}
      {error ? <ErrorBox error={error} title={`Could not load ${label}`} /> : null}
      {!loading && !error && rows.length === 0 ? <p class="muted empty">{String(section.empty_message ?? 'Nothing here yet.')}</p> : null}
      <ul class={grid ? 'grid' : 'rows'} style={grid ? { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` } : undefined} aria-busy={loading} data-rows={section.id}>
        {rows.map((row, i) => {
          const cells = fields.map((f) => (
            <span key={f.key} class="cell">
              <span class="cell-label">{f.label ?? f.key}</span>
              <FieldValue field={f} row={row} />
            </span>
          ));
          return (
            <li key={String(row.id ?? i)} class={grid ? 'tile' : 'row'}>
              {tap ? <button type="button" class="row-button" onClick={() => runAction(tap, row, host)}>{cells}</button> : <div class="row-static">{cells}</div>}
            </li>
          );
        })}
      </ul>
      <div class="list-foot">
        {total !== undefined && <span class="muted" aria-live="polite">{rows.length} of {total}</span>}
        {loading && <span class="muted">Loading…</span>}
        {Boolean(section.pagination) && more && !loading && (
          <button type="button" class="secondary" data-load-more={section.id} onClick={() => load(page + 1)}>Load more</button>
        )}
      </div>
    </div>
  );
}
