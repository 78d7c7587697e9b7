/**
 * The `/` shortcut of the reply box (live chat README, Canned responses): while the composer holds
 * `/` and a prefix of a short code, the tenant's and the agent's own canned responses starting with
 * it are offered (GET /live-chat/canned-responses?prefix=); ↑/↓ choose, Enter or a click inserts the
 * chosen one's content in place of the shortcut, Escape dismisses. Contents are rendered as text.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';

export interface Canned {
  id: number;
  short_code: string;
  content: string;
}

const SHORTCUT = /^\/([A-Za-z0-9_-]{0,50})$/;

/** The prefix the composer's text asks for, or null when it is not a shortcut. */
export const shortcutOf = (text: string) => SHORTCUT.exec(text)?.[1] ?? null;

/** The matches for the composer's text, and the key handling that picks one. */
export function useCannedPicker(text: string, insert: (content: string) => void) {
  const prefix = shortcutOf(text);
  const [matches, setMatches] = useState<Canned[]>([]);
  const [chosen, setChosen] = useState(0);
  const [dismissed, setDismissed] = useState<string | null>(null);
  useEffect(() => {
    if (prefix === null) return setMatches([]);
    let current = true;
    api<{ data: Canned[] }>('/live-chat/canned-responses', { query: { prefix: prefix || undefined, limit: 10 } }).then(
      (r) => current && (setMatches(r.data), setChosen(0)),
      () => current && setMatches([]),
    );
    return () => { current = false; };
  }, [prefix]);
  const open = prefix !== null && dismissed !== text && matches.length > 0;
  const pick = (c: Canned) => { setMatches([]); insert(c.content); };
  /** True when the key was the picker's (the composer does nothing more with it). */
  const onKey = (e: KeyboardEvent): boolean => {
    if (!open) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') setChosen((i) => (i + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
    else if (e.key === 'Enter' && !e.ctrlKey && !e.metaKey) pick(matches[chosen]);
    else if (e.key === 'Escape') setDismissed(text);
    else return false;
    e.preventDefault();
    return true;
  };
  const list = open ? (
    <ul class="canned-picker" role="listbox" aria-label="Canned responses" data-canned-picker>
      {matches.map((c, i) => (
        <li key={c.id} role="option" aria-selected={i === chosen} class={i === chosen ? 'chosen' : undefined} data-canned={c.short_code} onMouseDown={(e) => { e.preventDefault(); pick(c); }}>
          <strong>/{c.short_code}</strong> <span class="muted">{c.content}</span>
        </li>
      ))}
    </ul>
  ) : null;
  return { list, onKey };
}
