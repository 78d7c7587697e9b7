/**
 * The notifications bell (spec 1, Notifications): the unread count (GET /notifications/unread-count),
 * the latest notifications, mark-all-read, and `.notification.created` on the user's socket adding a
 * new one as it happens. A notification's link is offered only when it is a console page (the
 * platform refuses others when notifications are created; older rows are not trusted either).
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from './api';
import { Icon } from './icons';
import { socketFor } from './realtime';
import { isConsolePath, useLocation } from './router';
import type { Session } from './session';

interface Note { id: number; title: string; body?: string | null; icon?: string | null; read_at?: string | null; action_url?: string | null; created_at: string }

export function Bell({ session }: { session: Session }) {
  const [unread, setUnread] = useState(0);
  const [notes, setNotes] = useState<Note[]>([]);
  const [open, setOpen] = useState(false);
  const { path } = useLocation();
  // Following a notification's link closes the panel, which would cover the page it opened.
  useEffect(() => setOpen(false), [path]);
  const load = () => {
    api<{ unread_count: number }>('/notifications/unread-count').then((r) => setUnread(r.unread_count), () => undefined);
    api<{ notifications: Note[] }>('/notifications', { query: { per_page: 10 } }).then((r) => setNotes(r.notifications), () => undefined);
  };
  useEffect(() => {
    load();
    const socket = socketFor(session);
    const onNote = (n: Note) => {
      setNotes((all) => [n, ...all].slice(0, 10));
      setUnread((u) => u + 1);
    };
    socket.on('.notification.created', onNote);
    return () => void socket.off('.notification.created', onNote);
  }, [session.token]);
  return (
    <div class="bell">
      <button type="button" class="ghost" aria-expanded={open} aria-label={`Notifications, ${unread} unread`} data-bell onClick={() => setOpen(!open)}>
        <Icon name="bell" />
        {unread > 0 && <span class="count" data-unread>{unread}</span>}
      </button>
      {open && (
        <div class="bell-panel" role="region" aria-label="Notifications">
          <div class="row-end"><button type="button" class="ghost" onClick={() => api('/notifications/mark-all-read', { body: {} }).then(load)}>Mark all read</button></div>
          {notes.length === 0 ? <p class="muted">No notifications.</p> : (
            <ul>
              {notes.map((n) => (
                <li key={n.id} class={n.read_at ? 'read' : 'unread'}>
                  <Icon name={n.icon ?? 'info'} /> <strong>{n.title}</strong>
                  {n.body ? <p>{n.body}</p> : null}
                  {n.action_url && isConsolePath(n.action_url) ? <a href={n.action_url}>Open</a> : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
