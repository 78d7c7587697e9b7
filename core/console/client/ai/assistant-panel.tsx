/**
 * The AI assistant panel (spec 2, AI: agent chat with role-scoped tools; Authentication 3: only
 * users holding ai.view reach the AI widget). A side panel opened from the header that chats with
 * POST /ai/agent/chat as the signed-in user, so the agent's tools are exactly what the user's role
 * may use (the module and the platform decide; the panel only shows). The panel stays mounted in the
 * shell while closed, so its conversation survives navigating between pages.
 *
 * Model output is text, never markup: every message, tool input and tool result is rendered as a
 * text node (Preact escapes it), so an answer like `<img src=x onerror=…>` shows as those characters.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from '../api';

/** The chat answer of POST /ai/agent/chat (modules/ai README, "Agent"). */
interface ToolCall {
  name: string;
  input: unknown;
  output?: unknown;
  error?: { code: string; message: string };
}
interface ChatAnswer {
  message: string;
  tool_calls: ToolCall[];
  conversation_id: string;
  role: string;
  stop_reason: 'answered' | 'max_rounds' | 'max_tokens';
}

type Entry = { from: 'user'; text: string } | { from: 'agent'; answer: ChatAnswer } | { from: 'error'; text: string };

const pretty = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v, null, 2) ?? String(v));

function ToolCallView({ call }: { call: ToolCall }) {
  return (
    <details class={call.error ? 'ai-tool failed' : 'ai-tool'}>
      <summary>
        <span class="ai-tool-name">{call.name}</span> {call.error ? <span class="badge badge-destructive">{call.error.code}</span> : <span class="badge badge-success">ran</span>}
      </summary>
      <div class="ai-tool-body">
        <h4>Input</h4>
        <pre>{pretty(call.input)}</pre>
        <h4>{call.error ? 'Error' : 'Result'}</h4>
        <pre>{call.error ? call.error.message : pretty(call.output)}</pre>
      </div>
    </details>
  );
}

function EntryView({ entry }: { entry: Entry }) {
  if (entry.from === 'user') return <li class="ai-msg user"><span class="sr-only">You: </span>{entry.text}</li>;
  if (entry.from === 'error') return <li class="ai-msg error" role="alert">{entry.text}</li>;
  const { answer } = entry;
  return (
    <li class="ai-msg agent">
      <span class="sr-only">Assistant: </span>
      {answer.tool_calls.map((c, i) => <ToolCallView key={i} call={c} />)}
      <p class="ai-text">{answer.message}</p>
      {answer.stop_reason !== 'answered' && <p class="muted small">Stopped: {answer.stop_reason.replace('_', ' ')}</p>}
    </li>
  );
}

export function AssistantPanel({ open, onClose }: { open: boolean; onClose(): void }) {
  const [entries, setEntries] = useState<Entry[]>([]);
  const [conversation, setConversation] = useState<string | undefined>();
  const [draft, setDraft] = useState('');
  const [busy, setBusy] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  useEffect(() => { if (open) input.current?.focus(); }, [open]);
  useEffect(() => { list.current?.lastElementChild?.scrollIntoView?.({ block: 'end' }); }, [entries.length]);

  const send = async (e: Event) => {
    e.preventDefault();
    const message = draft.trim();
    if (!message || busy) return;
    setDraft('');
    setBusy(true);
    setEntries((all) => [...all, { from: 'user', text: message }]);
    try {
      const answer = await api<ChatAnswer>('/ai/agent/chat', { body: { message, ...(conversation ? { conversation_id: conversation } : {}) } });
      setConversation(answer.conversation_id);
      setEntries((all) => [...all, { from: 'agent', answer }]);
    } catch (err) {
      setEntries((all) => [...all, { from: 'error', text: err instanceof ApiError ? err.message : String(err) }]);
    } finally {
      setBusy(false);
    }
  };
  const restart = () => {
    setEntries([]);
    setConversation(undefined);
  };

  return (
    <aside id="ai-panel" class="ai-panel" aria-label="AI assistant" hidden={!open}>
      <header>
        <h2>AI assistant</h2>
        <span class="spacer" />
        <button type="button" class="ghost" onClick={restart} disabled={busy || entries.length === 0}>New chat</button>
        <button type="button" class="ghost" onClick={onClose}>Close<span class="sr-only"> assistant</span></button>
      </header>
      <ol class="ai-log" ref={list} aria-live="polite">
        {entries.length === 0 && <li class="muted">Ask about your orders, customers or settings. The assistant uses only what your role may use.</li>}
        {entries.map((entry, i) => <EntryView key={i} entry={entry} />)}
        {busy && <li class="muted">Thinking…</li>}
      </ol>
      <form class="ai-compose" onSubmit={send}>
        <label class="sr-only" for="ai-input">Message the assistant</label>
        <textarea
          id="ai-input"
          ref={input}
          rows={2}
          maxLength={20000}
          value={draft}
          onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) send(e); }}
        />
        <button type="submit" disabled={busy || !draft.trim()}>Send</button>
      </form>
    </aside>
  );
}
