/**
 * The answer to a paused run (spec 2, Graph run: a human node pauses the run until a person answers;
 * modules/ai README, "Graph flows"), built from the node's `human_input_schema`: the first required
 * property with an enum (the flows' `decision`) becomes one button per value, the other enum
 * properties selects, string properties text inputs (a long one a text area). Empty fields are not
 * sent, so an optional field stays absent. The answer is `POST /ai/agent/graph/resume`; a 422's
 * `human_input.<field>` messages land beside their inputs, anything else is shown as the API said it.
 * Cancel is `POST /ai/agent/graph/{run_id}/cancel`, after a confirmation. Only for users holding
 * ai.configure (the resume permission); the page shows the run read-only to the others.
 */
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { confirmDialog, ErrorBox } from '../dialogs';
import type { HumanInputSchema, InputProperty, Run } from './run-types';

const LONG_TEXT = 200;
const isEnum = (p: InputProperty): p is InputProperty & { enum: string[] } => Array.isArray(p.enum) && p.enum.length > 0;

export function RunAnswerForm({ run, onDone }: { run: Run; onDone: () => void }) {
  const schema: HumanInputSchema = run.human_input_schema ?? {};
  const props = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const choice = props.find(([name, p]) => required.has(name) && isEnum(p));
  const fields = props.filter((entry) => entry !== choice);
  const [values, setValues] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const [error, setError] = useState<unknown>();

  const act = async (call: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      await call();
      onDone();
    } catch (err) {
      const byField = err instanceof ApiError && err.errors && !Array.isArray(err.errors) ? err.errors : null;
      if (byField && Object.keys(byField).every((k) => k.startsWith('human_input.'))) {
        setFieldErrors(Object.fromEntries(Object.entries(byField).map(([k, m]) => [k.slice('human_input.'.length), m])));
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };
  const answer = (decision?: string) =>
    act(() => {
      const human_input: Record<string, string> = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim() !== ''));
      if (choice && decision) human_input[choice[0]] = decision;
      return api('/ai/agent/graph/resume', { body: { run_id: run.run_id, human_input } });
    });
  const cancel = async () => {
    if (await confirmDialog('Cancel this run?', 'The run stops here and nothing further is done in orders.')) act(() => api(`/ai/agent/graph/${encodeURIComponent(run.run_id)}/cancel`, { body: {} }));
  };
  const set = (name: string) => (e: Event) => setValues({ ...values, [name]: (e.target as HTMLInputElement).value });

  return (
    <form class="run-answer" aria-label="Your answer" onSubmit={(e) => { e.preventDefault(); if (!choice) answer(); }}>
      {fields.map(([name, p]) => (
        <label key={name} class="field-label">
          {name.replace(/_/g, ' ')}{required.has(name) ? <span aria-hidden="true"> *</span> : null}
          {isEnum(p) ? (
            <select name={name} value={values[name] ?? ''} onChange={set(name)} required={required.has(name)}>
              <option value="">—</option>
              {p.enum.map((v) => <option key={v} value={v}>{v}</option>)}
            </select>
          ) : p.maxLength === undefined || p.maxLength > LONG_TEXT ? (
            <textarea name={name} rows={3} maxLength={p.maxLength} value={values[name] ?? ''} onInput={set(name)} required={required.has(name)} />
          ) : (
            <input name={name} maxLength={p.maxLength} pattern={p.pattern} value={values[name] ?? ''} onInput={set(name)} required={required.has(name)} />
          )}
          {p.description ? <span class="muted">{p.description}</span> : null}
          {fieldErrors[name]?.map((m) => <p key={m} class="input-error">{m}</p>)}
        </label>
      ))}
      {choice && fieldErrors[choice[0]]?.map((m) => <p key={m} class="input-error">{choice[0]}: {m}</p>)}
      {error ? <ErrorBox error={error} title="The run did not move" /> : null}
      <div class="actions-bar">
        {choice ? (
          (choice[1] as { enum: string[] }).enum.map((v) => <button key={v} type="button" class="primary" disabled={busy} data-decision={v} onClick={() => answer(v)}>{v}</button>)
        ) : (
          <button type="submit" class="primary" disabled={busy}>Submit</button>
        )}
        <button type="button" class="danger" disabled={busy} onClick={cancel}>Cancel run</button>
      </div>
    </form>
  );
}
