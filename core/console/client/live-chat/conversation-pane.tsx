/**
 * One conversation in the inbox (spec 2, Live chat): its messages, fetched again from the last one
 * held whenever the channel says something happened in it (the broadcast carries no `is_internal`,
 * the stored message does); reply or internal note (marked, and never sent to the visitor: the
 * module keeps notes off the visitor's channel and the widget API); assign or transfer; priority;
 * resolve, close and reopen; `/` in the reply box offers canned responses (canned-picker.tsx). Every text from a visitor is rendered as text, never as markup.
 * Files (README, Attachments): a message's file shows as attachments.tsx draws it; the agent attaches
 * one with the composer's button or by dropping it on the composer, as a reply or, with Internal note,
 * a note; "Sending …" shows meanwhile and the API's own message when it refuses the file.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { ErrorBox, toast } from '../dialogs';
import { AttachmentView, base64Of } from './attachments';
import { useCannedPicker } from './canned-picker';
import { INBOX_PATH, PRIORITIES, statusVariant, visitorName, type Agent, type Conversation, type Message } from './chat';

interface Detail extends Omit<Conversation, 'visitor'> {
  visitor: { id: number; name: string | null; email: string | null; current_page?: string | null } | null;
  agent: Agent | null;
}

const FINISHED = ['resolved', 'closed'];

export function ConversationPane({ id, pulse, agents, canReply, onSeen, onChanged }: {
  id: number;
  pulse: number;
  agents: Agent[];
  canReply: boolean;
  onSeen(latestAt: string): void;
  onChanged(): void;
}) {
  const [conv, setConv] = useState<Detail | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [error, setError] = useState<unknown>();
  const [text, setText] = useState('');
  const [internal, setInternal] = useState(false);
  const [busy, setBusy] = useState(false);
  const [upload, setUpload] = useState<{ text: string; error?: boolean } | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const held = useRef<Message[]>([]);
  const canned = useCannedPicker(text, setText);
  const log = useRef<HTMLOListElement>(null);

  const loadConversation = () => api<Detail>(`/live-chat/conversations/${id}`).then(setConv, setError);
  /** Messages after the last one held (all of them the first time), in order, each once. */
  const loadMessages = async () => {
    const after = held.current.at(-1)?.id ?? 0;
    const r = await api<{ data: Message[] }>(`/live-chat/conversations/${id}/messages`, { query: { after_id: after || undefined } });
    const fresh = r.data.filter((m) => !held.current.some((h) => h.id === m.id));
    if (fresh.length) {
      held.current = [...held.current, ...fresh];
      setMessages(held.current);
    }
    const latest = held.current.at(-1);
    if (latest) onSeen(latest.created_at);
  };
  useEffect(() => {
    loadConversation();
    loadMessages().catch(setError);
  }, [id]);
  useEffect(() => {
    if (pulse === 0) return;
    loadConversation();
    loadMessages().catch(() => undefined);
  }, [pulse]);
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [messages.length]);

  /** Runs a change, then reads the conversation again; answers whether the API took it. */
  const act = async (fn: () => Promise<unknown>, ok?: string): Promise<boolean> => {
    setBusy(true);
    try {
      await fn();
      if (ok) toast('ok', ok);
      await loadConversation();
      await loadMessages();
      onChanged();
      return true;
    } catch (err) {
      toast('error', (err as ApiError).message, (err as ApiError).reasons);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const send = async (e: Event) => {
    e.preventDefault();
    const content = text.trim();
    if (!content) return;
    // Cleared at once, so what the agent types next is never wiped by this send's answer; a refused
    // message comes back into an empty composer.
    setText('');
    const sent = await act(() => api(`/live-chat/conversations/${id}/messages`, { body: { content, is_internal: internal } }));
    if (!sent) setText((now) => now || content);
  };

  const sendFile = async (file: File | undefined) => {
    if (!file) return;
    setUpload({ text: `Sending ${file.name}…` });
    setBusy(true);
    try {
      const data = await base64Of(file);
      await api(`/live-chat/conversations/${id}/attachments`, { body: { name: file.name, content_type: file.type || 'application/octet-stream', data, is_internal: internal } });
      setUpload(null);
      await loadMessages();
      onChanged();
    } catch (err) {
      setUpload({ text: `${file.name}: ${(err as Error).message}`, error: true });
    } finally {
      setBusy(false);
    }
  };

  if (error) return <section class="inbox-pane"><ErrorBox error={error} title="The conversation could not be opened" /></section>;
  if (!conv) return <section class="inbox-pane"><p class="muted">Loading…</p></section>;
  const finished = FINISHED.includes(conv.status);
  return (
    <section class="inbox-pane" aria-label={`Conversation with ${visitorName(conv as Conversation)}`} data-open-conversation={id} data-status={conv.status}>
      <header class="conv-head">
        <div>
          <a class="back-link" href={INBOX_PATH}>← All conversations</a>
          <h2 class="section-title">{visitorName(conv as Conversation)}</h2>
          <p class="muted">
            {conv.visitor?.email ?? ''}{conv.source_url ? <> · <span title={conv.source_url}>{conv.source_page_title || conv.source_url}</span></> : null}
          </p>
        </div>
        <span class={`badge badge-${statusVariant(conv.status)}`} data-conversation-status>{conv.status}</span>
      </header>
      {canReply && (
        <div class="conv-actions">
          <label class="field-label">{conv.agent_id === null ? 'Assign to' : 'Transfer to'}
            <select data-assign value={conv.agent_id ?? ''} disabled={busy || finished} onChange={(e) => {
              const agentId = Number((e.target as HTMLSelectElement).value);
              if (agentId) act(() => api(`/live-chat/conversations/${id}/assign`, { body: { agent_id: agentId } }), conv.agent_id === null ? 'Assigned.' : 'Transferred.');
            }}>
              {conv.agent_id === null && <option value="">Unassigned</option>}
              {agents.map((a) => <option key={a.id} value={a.id}>{a.name} ({a.status}, {a.current_chats_count}/{a.max_concurrent_chats})</option>)}
            </select>
          </label>
          <label class="field-label">Priority
            <select data-priority value={conv.priority} disabled={busy} onChange={(e) => act(() => api(`/live-chat/conversations/${id}/priority`, { method: 'PUT', body: { priority: (e.target as HTMLSelectElement).value } }))}>
              {PRIORITIES.map((p) => <option key={p} value={p}>{p}</option>)}
            </select>
          </label>
          <span class="spacer" />
          {!finished && <button type="button" data-conv-action="resolve" disabled={busy} onClick={() => act(() => api(`/live-chat/conversations/${id}/resolve`, { body: {} }), 'Resolved.')}>Resolve</button>}
          {conv.status !== 'closed' && <button type="button" class="danger" data-conv-action="close" disabled={busy} onClick={() => act(() => api(`/live-chat/conversations/${id}/close`, { body: {} }), 'Closed.')}>Close</button>}
          {finished && <button type="button" data-conv-action="reopen" disabled={busy} onClick={() => act(() => api(`/live-chat/conversations/${id}/reopen`, { body: {} }), 'Reopened.')}>Reopen</button>}
        </div>
      )}
      <ol class="chat-log" ref={log} aria-live="polite" data-messages>
        {messages.map((m) => (
          <li key={m.id} class={`msg msg-${m.sender_type}${m.is_internal ? ' msg-note' : ''}`} data-message={m.id} data-sender={m.sender_type} data-internal={m.is_internal ? 'true' : undefined}>
            <span class="msg-who">
              {m.is_internal ? 'Internal note · not shown to the visitor · ' : ''}{m.sender_name ?? m.sender_type}
              <time dateTime={m.created_at}> {new Date(m.created_at).toLocaleTimeString()}</time>
            </span>
            {(!m.attachment || m.content !== m.attachment.name) && <p class="msg-text">{m.content}</p>}
            {m.attachment && <AttachmentView a={m.attachment} />}
          </li>
        ))}
      </ol>
      {canReply && (
        <form class={internal ? 'composer note' : 'composer'} onSubmit={send} data-drop
          onDragOver={(e) => { if (e.dataTransfer?.types.includes('Files')) e.preventDefault(); }}
          onDrop={(e) => { if (!e.dataTransfer?.files.length) return; e.preventDefault(); sendFile(e.dataTransfer.files[0]); }}>
          <label class="sr-only" for={`reply-${id}`}>{internal ? 'Internal note' : 'Reply'}</label>
          <textarea id={`reply-${id}`} data-composer rows={3} value={text} maxLength={5000} placeholder={internal ? 'A note for agents only' : conv.status === 'closed' ? 'Reopen the conversation to reply' : 'Write a reply'}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            onKeyDown={(e) => { if (!canned.onKey(e) && e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send(e); }} />
          {canned.list}
          {upload && <p class={upload.error ? 'upload error' : 'upload muted'} role={upload.error ? 'alert' : 'status'} data-upload-status={upload.error ? 'error' : 'sending'}>{upload.text}</p>}
          <div class="row-end">
            <input ref={picker} type="file" class="sr-only" tabIndex={-1} aria-hidden="true" data-file-input accept="image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain"
              onChange={(e) => { const input = e.target as HTMLInputElement; const file = input.files?.[0]; input.value = ''; sendFile(file); }} />
            <button type="button" data-attach disabled={busy} title="Attach a file (or drop it here)" onClick={() => picker.current?.click()}>Attach file</button>
            <label class="check"><input type="checkbox" data-internal-toggle checked={internal} onChange={(e) => setInternal((e.target as HTMLInputElement).checked)} /> Internal note</label>
            <button type="submit" class="primary" data-send disabled={busy || !text.trim()}>{internal ? 'Add note' : 'Send'}</button>
          </div>
        </form>
      )}
    </section>
  );
}
