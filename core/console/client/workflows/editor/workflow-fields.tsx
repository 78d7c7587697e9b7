/**
 * The workflow's own fields, shown when nothing on the canvas is selected (spec 2, Workflow:
 * description, trigger_type, trigger_config, tags). The trigger type says how runs start; the
 * trigger config carries what that needs (`cron` and `timezone` for a schedule, `event` for an event).
 */
import type { Draft } from './draft';
import { JsonField } from './node-form';

/** Spec 2, Workflow: trigger_type. */
const TRIGGER_TYPES = ['manual', 'schedule', 'webhook', 'event'];

export function WorkflowFields({ draft, readOnly, onChange }: { draft: Draft; readOnly: boolean; onChange: (d: Draft) => void }) {
  return (
    <section class="wf-panel" aria-label="Workflow" data-workflow-fields>
      <h2>Workflow</h2>
      <div class="form">
        <div class="form-row">
          <label for="wf-description">Description</label>
          <textarea id="wf-description" rows={2} value={draft.description} disabled={readOnly} onInput={(e) => onChange({ ...draft, description: (e.target as HTMLTextAreaElement).value })} />
        </div>
        <div class="form-row">
          <label for="wf-trigger-type">Trigger type</label>
          <select id="wf-trigger-type" value={draft.trigger_type} disabled={readOnly} onChange={(e) => onChange({ ...draft, trigger_type: (e.target as HTMLSelectElement).value })}>
            {TRIGGER_TYPES.map((t) => <option key={t} value={t}>{t}</option>)}
          </select>
        </div>
        <div class="form-row">
          <label for="wf-trigger-config">Trigger config (JSON)</label>
          <JsonField id="wf-trigger-config" kind="object" disabled={readOnly} aria-required={false} aria-describedby="wf-trigger-config-help" value={draft.trigger_config}
            onValue={(v) => onChange({ ...draft, trigger_config: (v as Record<string, unknown> | undefined) ?? {} })} />
          <small id="wf-trigger-config-help" class="muted">A schedule needs {'{"cron": "0 9 * * *", "timezone": "Asia/Kolkata"}'}; an event {'{"event": "order.created"}'}.</small>
        </div>
        <div class="form-row">
          <label for="wf-tags">Tags</label>
          <input id="wf-tags" value={draft.tags.join(', ')} disabled={readOnly} aria-describedby="wf-tags-help"
            onChange={(e) => onChange({ ...draft, tags: (e.target as HTMLInputElement).value.split(',').map((t) => t.trim()).filter(Boolean) })} />
          <small id="wf-tags-help" class="muted">Comma-separated.</small>
        </div>
      </div>
      <p class="muted">Select a node to edit it; select nothing to come back here.</p>
    </section>
  );
}
