/** A section's data (GET /mobile/screens/{screenId}/data/{sectionId}), fetched fresh each time. */
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import type { Row } from './values';

export interface Page { data: unknown; meta?: { current_page: number; per_page: number; total?: number; last_page?: number; has_more?: boolean } }

export function fetchSection(screenId: string, sectionId: string, params: Record<string, string | number | undefined>): Promise<Page> {
  return api<Page>(`/mobile/screens/${encodeURIComponent(screenId)}/data/${encodeURIComponent(sectionId)}`, { query: params });
}

/** Data of a section without its own paging; `null` when the section has no data source (404 SECTION_HAS_NO_DATA). */
export function useSectionData(screenId: string, section: Row, params: Record<string, string>, tick: number): { data: unknown; error?: unknown; loading: boolean } {
  // Data in the definition itself, unless it names a source; a stats row's `items` are its cards,
  // whose values come from the data by `key` unless every card carries its own `value`.
  const cards = Array.isArray(section.items) ? (section.items as Row[]) : undefined;
  const inline = section.data_source ? undefined : section.type === 'stats-row' ? (cards?.every((c) => 'value' in c) ? cards : undefined) : (section.items ?? section.data);
  const [state, setState] = useState<{ data: unknown; error?: unknown; loading: boolean }>({ data: inline ?? null, loading: inline === undefined });
  useEffect(() => {
    if (inline !== undefined) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fetchSection(screenId, String(section.id), params).then(
      (page) => live && setState({ data: page.data, loading: false }),
      (error: unknown) => live && setState(error instanceof ApiError && error.code === 'SECTION_HAS_NO_DATA' ? { data: null, loading: false } : { data: null, error, loading: false }),
    );
    return () => void (live = false);
  }, [screenId, section.id, JSON.stringify(params), tick]);
  return state;
}
