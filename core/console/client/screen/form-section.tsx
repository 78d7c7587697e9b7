/**
 * The form section: dynamic inputs with validation (spec 1). Per-type fields are the spec's "not
 * shown"; ours: `fields[]` each {key, label, type (text, email, number, textarea, select, checkbox,
 * date, tel, url, password), required, min, max, min_length, max_length, pattern, options[],
 * placeholder, default}, and `submit` {label, action}. Values are checked in the browser first (each
 * message beside its input, announced), then sent as the action's row, so `{{key}}` placeholders and
 * an api-call body take them; the server's own 422 messages are shown the same way.
 */
import { useState } from 'preact/hooks';
import { ApiError, api } from '../api';
import { toast } from '../dialogs';
import { reportResult, runAction, type ActionHost } from './actions';
import { fill, isObject, type Row } from './values';

interface InputDef { key: string; label?: string; type?: string; required?: boolean; min?: number; max?: number; min_length?: number; max_length?: number; pattern?: string; options?: Array<{ label: string; value: string }>; placeholder?: string; default?: unknown }

export function validate(def: InputDef, value: unknown): string | undefined {
  const label = def.label ?? def.key;
  const empty = value === undefined || value === '' || value === null || (def.type === 'checkbox' && value === false);
  if (empty) return def.required ? `${label} is required.` : undefined;
  const s = String(value);
  if (def.type === 'number') {
    const n = Number(s);
    if (!Number.isFinite(n)) return `${label} must be a number.`;
    if (def.min !== undefined && n < def.min) return `${label} must be at least ${def.min}.`;
    if (def.max !== undefined && n > def.max) return `${label} may not be greater than ${def.max}.`;
  }
  if (def.type === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s)) return `${label} must be a valid email address.`;
  if (def.min_length !== undefined && s.length < def.min_length) return `${label} must be at least ${def.min_length} characters.`;
  if (def.max_length !== undefined && s.length > def.max_length) return `${label} may not be greater than ${def.max_length} characters.`;
  if (def.pattern) {
    try {
      if (!new RegExp(`^(?:${def.pattern})$`).test(s)) return `${label} has the wrong format.`;
    } catch {
      /* a module's bad pattern does not block the form */
    }
  }
  return undefined;
}

export function FormSection({ section, row, host }: { section: Row; row: Row; host: ActionHost }) {
  const inputs = ((section.fields as InputDef[] | undefined) ?? []).filter((f) => isObject(f) && typeof f.key === 'string');
  const [values, setValues] = useState<Row>(() => Object.fromEntries(inputs.map((f) => [f.key, f.default ?? (f.type === 'checkbox' ? false : '')])));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const submit = isObject(section.submit) ? section.submit : {};
  const id = (k: string) => `f-${String(section.id)}-${k}`;

  const onSubmit = async (e: Event) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    for (const f of inputs) {
      const msg = validate(f, values[f.key]);
      if (msg) found[f.key] = msg;
    }
    setErrors(found);
    if (Object.keys(found).length) {
      document.getElementById(id(Object.keys(found)[0]))?.focus();
      return;
    }
    const data = { ...row, ...Object.fromEntries(inputs.map((f) => [f.key, f.type === 'number' && values[f.key] !== '' ? Number(values[f.key]) : values[f.key]])) };
    const action = isObject(submit.action) ? submit.action : undefined;
    if (!action) return toast('error', 'This form has no submit action.');
    setBusy(true);
    try {
      // An api-call posts the form's values (its `body` template, or all of them); validation errors land beside the inputs.
      if (action.type === 'api-call' && !action.confirm) {
        const body = action.body === undefined ? data : fill(action.body, data);
        const res = await api<Row>(fill(String(action.endpoint ?? ''), data), { method: String(action.method ?? 'POST').toUpperCase(), body });
        reportResult(res, action.success_message ?? 'Saved.');
        host.refresh();
      } else await runAction(action, data, host);
    } catch (err) {
      const e = err as ApiError;
      if (e.errors && !Array.isArray(e.errors)) setErrors(Object.fromEntries(Object.entries(e.errors).map(([k, v]) => [k, v.join(' ')])));
      toast('error', e.message, e.reasons);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="form" noValidate onSubmit={onSubmit}>
      {inputs.map((f) => {
        const err = errors[f.key];
        const common = { id: id(f.key), name: f.key, 'aria-invalid': err ? true : undefined, 'aria-describedby': err ? `${id(f.key)}-err` : undefined, required: f.required };
        const set = (v: unknown) => setValues({ ...values, [f.key]: v });
        let input;
        if (f.type === 'textarea') input = <textarea {...common} placeholder={f.placeholder} value={String(values[f.key] ?? '')} onInput={(e) => set((e.target as HTMLTextAreaElement).value)} />;
        else if (f.type === 'select') input = (
          <select {...common} value={String(values[f.key] ?? '')} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
            <option value="">Choose…</option>
            {(f.options ?? []).map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
          </select>
        );
        else if (f.type === 'checkbox') input = <input {...common} type="checkbox" checked={Boolean(values[f.key])} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
        else input = <input {...common} type={['email', 'number', 'date', 'tel', 'url', 'password'].includes(f.type ?? '') ? f.type : 'text'} placeholder={f.placeholder} value={String(values[f.key] ?? '')} onInput={(e) => set((e.target as HTMLInputElement).value)} />;
        return (
          <div key={f.key} class={`form-row${f.type === 'checkbox' ? ' inline' : ''}`}>
            <label for={id(f.key)}>{f.label ?? f.key}{f.required ? <span aria-hidden="true"> *</span> : null}</label>
            {input}
            {err ? <p class="input-error" id={`${id(f.key)}-err`} role="alert">{err}</p> : null}
          </div>
        );
      })}
      <div class="row-end">
        <button type="submit" class="primary" disabled={busy}>{String(submit.label ?? 'Save')}</button>
      </div>
    </form>
  );
}
