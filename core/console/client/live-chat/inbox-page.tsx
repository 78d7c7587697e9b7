/**
 * The agent inbox (spec 2, Live chat): conversations by status in tabs, searchable (visitor name,
 * email or message text), each with its unread count (unread.ts); the open conversation beside them
 * (conversation-pane.tsx); the agent's own status (PUT /live-chat/agents/me/status). Everything moves
 * on the tenant's live chat channel without a reload: a new message or conversation updates the list
 * and the open conversation. `/admin/inbox/reports` shows the reports instead (reports-panel.tsx), for
 * members with live_chat.reports.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorBox, toast } from '../dialogs';
import { navigate } from '../router';
import { can, type Me } from '../me';
import { INBOX_PATH, MY_STATUSES, statusVariant, useChatChannel, visitorName, type Agent, type ChatEvent, type ChatEventName, type Conversation } from './chat';
import { ConversationPane } from './conversation-pane';
import { ReportsPanel } from './reports-panel';
import { UnreadBook } from './unread';

const TABS = [
  { id: 'open', label: 'Open', statuses: 'pending,active,waiting' },
  { id: 'pending', label: 'Pending', statuses: 'pending' },
  { id: 'active', label: 'Active', statuses: 'active' },
  { id: 'waiting', label: 'Waiting', statuses: 'waiting' },
  { id: 'resolved', label: 'Resolved', statuses: 'resolved' },
  { id: 'closed', label: 'Closed', statuses: 'closed' },
] as const;
const OPEN = ['pending', 'active', 'waiting'];
const REPORTS_SUB = '/reports';

export function InboxPage({ me, sub }: { me: Me; sub: string }) {
  const reports = sub === REPORTS_SUB && can(me, 'live_chat.reports');
  const selected = Number(sub.replace(/^\//, '')) || null;
  const [tab, setTab] = useState<(typeof TABS)[number]['id']>('open');
  const [search, setSearch] = useState('');
  const [list, setList] = useState<Conversation[] | null>(null);
  const [error, setError] = useState<unknown>();
  const [agent, setAgent] = useState<Agent | null | undefined>();
  const [agents, setAgents] = useState<Agent[]>([]);
  const [, setTick] = useState(0);
  const book = useMemo(() => UnreadBook.of(me.tenant.id, me.id), [me.tenant.id, me.id]);
  /** Bumped by every broadcast about the open conversation: the pane reads what is new. */
  const [pulse, setPulse] = useState(0);
  const query = useRef({ tab, search });
  query.current = { tab, search };

  const load = () => {
    const t = TABS.find((x) => x.id === query.current.tab)!;
    api<{ data: Conversation[] }>('/live-chat/conversations', { query: { status: t.statuses, search: query.current.search.trim() || undefined, per_page: 50 } }).then((r) => {
      setList(r.data);
      setError(undefined);
    }, setError);
  };
  const loadAgents = () => api<{ data: Agent[] }>('/live-chat/agents').then((r) => setAgents(r.data), () => undefined);
  useEffect(load, [tab]);
  useEffect(() => {
    loadAgents();
    // Not every member who may read the inbox is an agent (404): they read, and cannot set a status.
    api<Agent>('/live-chat/agents/me').then(setAgent, (err: ApiError) => setAgent(err.status === 404 || err.status === 403 ? null : undefined));
  }, []);

  // Broadcasts come in bursts (a message, then the conversation's update): one read per burst, a
  // moment after it. The module broadcasts a message before it writes the conversation's last message
  // and its waiting/active move (which has no broadcast of its own), so reading at once could show the
  // conversation as it was.
  const reload = useRef<ReturnType<typeof setTimeout>>();
  const touchedOpen = useRef(false);
  const live = useChatChannel(me.tenant.id, (name: ChatEventName, e: ChatEvent) => {
    if (name === 'chat.message.sent' && e.message?.sender_type === 'visitor' && e.conversation_id !== selected) {
      book.arrived(e.conversation_id);
      setTick((t) => t + 1);
    }
    if (e.conversation_id === selected) touchedOpen.current = true;
    clearTimeout(reload.current);
    reload.current = setTimeout(() => {
      load();
      loadAgents();
      if (touchedOpen.current) setPulse((p) => p + 1);
      touchedOpen.current = false;
    }, 150);
  });
  useEffect(() => () => clearTimeout(reload.current), []);

  const setMyStatus = async (status: string) => {
    try {
      setAgent(await api<Agent>('/live-chat/agents/me/status', { method: 'PUT', body: { status } }));
      loadAgents();
      load();
    } catch (err) {
      toast('error', (err as ApiError).message, (err as ApiError).reasons);
    }
  };

  return (
    <div class="page inbox" data-inbox data-live={live ? 'on' : 'off'}>
      <div class="inbox-head">
        <h1>{reports ? 'Live chat reports' : 'Agent inbox'}</h1>
        {can(me, 'live_chat.reports') && (
          <button type="button" class="link" data-reports-toggle onClick={() => navigate(reports ? INBOX_PATH : `${INBOX_PATH}${REPORTS_SUB}`)}>{reports ? 'Conversations' : 'Reports'}</button>
        )}
        <span class={live ? 'live on' : 'live'} title={live ? 'Updates arrive as they happen' : 'Connecting to live updates…'}>{live ? 'Live' : 'Connecting…'}</span>
        <span class="spacer" />
        {agent ? (
          <label class="field-label">My status
            <select data-my-status value={agent.status} onChange={(e) => setMyStatus((e.target as HTMLSelectElement).value)}>
              {agent.status === 'busy' && <option value="busy">busy (at maximum)</option>}
              {MY_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </label>
        ) : agent === null ? <span class="muted">You are not a live chat agent.</span> : null}
      </div>
      {reports ? <ReportsPanel /> : (
      <div class={selected ? 'inbox-body has-open' : 'inbox-body'}>
        <section class="inbox-list" aria-label="Conversations">
          <div class="tabs">
            <div role="tablist" aria-label="Conversation status">
              {TABS.map((t) => (
                <button key={t.id} type="button" role="tab" aria-selected={tab === t.id} data-tab={t.id} onClick={() => { setTab(t.id); setList(null); }}>{t.label}</button>
              ))}
            </div>
          </div>
          <form class="list-tools" role="search" onSubmit={(e) => { e.preventDefault(); load(); }}>
            <label class="field-label">Search <input type="search" data-inbox-search value={search} placeholder="Name, email or message" onInput={(e) => setSearch((e.target as HTMLInputElement).value)} /></label>
            <button type="submit">Search</button>
          </form>
          {error ? <ErrorBox error={error} title="Conversations could not be loaded" /> : !list ? <p class="muted">Loading…</p> : list.length === 0 ? (
            <p class="muted">No conversations here.</p>
          ) : (
            <ul class="rows" data-conversations>
              {list.map((c) => {
                const unread = c.id === selected ? 0 : book.of(c.id, c.last_message_at);
                const shown = unread === 'new' ? OPEN.includes(c.status) : unread > 0;
                return (
                  <li key={c.id} class="row" data-conversation={c.id}>
                    <button type="button" class="row-button conv" aria-current={c.id === selected ? 'true' : undefined} onClick={() => navigate(`${INBOX_PATH}/${c.id}`)}>
                      <strong class="conv-name">{visitorName(c)}</strong>
                      {shown && <span class="count" data-unread-count={unread}>{unread === 'new' ? 'new' : unread}<span class="sr-only"> unread</span></span>}
                      <span class={`badge badge-${statusVariant(c.status)}`}>{c.status}</span>
                      {c.priority !== 'normal' && <span class={`badge badge-${c.priority === 'urgent' || c.priority === 'high' ? 'destructive' : 'secondary'}`}>{c.priority}</span>}
                      <span class="conv-last muted">{c.last_message ?? ''}</span>
                      <span class="conv-meta muted">{c.agent_name ? `→ ${c.agent_name}` : 'unassigned'}{c.last_message_at ? ` · ${new Date(c.last_message_at).toLocaleTimeString()}` : ''}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        {selected ? (
          <ConversationPane
            key={selected}
            id={selected}
            pulse={pulse}
            agents={agents}
            canReply={can(me, 'live_chat.reply')}
            onSeen={(at) => { book.opened(selected, at); setTick((t) => t + 1); }}
            onChanged={load}
          />
        ) : (
          <section class="inbox-pane empty-state" aria-label="Conversation"><p>Pick a conversation.</p></section>
        )}
      </div>
      )}
    </div>
  );
}
