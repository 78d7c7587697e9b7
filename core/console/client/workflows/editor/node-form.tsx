/**
 * A node's config form, generated from its registry entry's config JSON schema (spec 2, Node registry
 * entry: configSchema): a string is a text input (a select with `enum`, a code area with
 * `contentMediaType: text/javascript`), a number or integer a number input within minimum/maximum,
 * a boolean a checkbox, an object or array JSON text. A property without a type (a condition's
 * `left`, a set-variable's `value`) takes any JSON value: what is typed is read as JSON when it parses
 * (`100`, `true`, `{"a":1}`) and kept as text otherwise (`{{total}}`), so a placeholder needs no quotes.
 * Required fields are marked; the schema's description (or title) is the field's help.
 */
import { useEffect, useState } from 'preact/hooks';
import type { JsonSchema, NodeEntry } from '../workflow-types';

type Config = Record<string, unknown>;

const typeOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type);
const asText = (v: unknown) => (v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v));

function readAny(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function NodeForm({ entry, config, onChange, readOnly, idPrefix }: { entry: NodeEntry; config: Config; onChange: (c: Config) => void; readOnly?: boolean; idPrefix: string }) {
  const props = Object.entries(entry.configSchema.properties ?? {});
  if (props.length === 0) return <p class="muted">This node has no settings.</p>;
  const set = (key: string, value: unknown) => {
    const copy = { ...config };
    if (value === undefined) delete copy[key];
    else copy[key] = value;
    onChange(copy);
  };
  return (
    <div class="form wf-node-form" data-node-form={entry.identifier}>
      {props.map(([key, schema]) => {
        const id = `${idPrefix}-${key}`;
        const required = entry.configSchema.required.includes(key);
        const help = schema.description ?? schema.title;
        return (
          <div class="form-row" key={key} data-config-field={key}>
            <label for={id}>{key}{required && <span class="required" aria-hidden="true"> *</span>}{required && <span class="sr-only"> (required)</span>}</label>
            <Field id={id} schema={schema} value={config[key]} required={required} readOnly={readOnly} describedBy={help ? `${id}-help` : undefined} onValue={(v) => set(key, v)} />
            {help && <small id={`${id}-help`} class="muted">{help}</small>}
          </div>
        );
      })}
    </div>
  );
}

interface FieldProps { id: string; schema: JsonSchema; value: unknown; required: boolean; readOnly?: boolean; describedBy?: string; onValue: (v: unknown) => void }

function Field({ id, schema, value, required, readOnly, describedBy, onValue }: FieldProps) {
  const type = typeOf(schema);
  const common = { id, disabled: readOnly, 'aria-required': required, 'aria-describedby': describedBy };
  if (schema.enum) {
    return (
      <select {...common} value={asText(value)} onChange={(e) => onValue(readEnum(schema.enum!, (e.target as HTMLSelectElement).value))}>
        <option value="">—</option>
        {schema.enum.map((o) => <option key={asText(o)} value={asText(o)}>{asText(o)}</option>)}
      </select>
    );
  }
  if (type === 'boolean') return <input {...common} type="checkbox" checked={value === true} onChange={(e) => onValue((e.target as HTMLInputElement).checked)} />;
  if (type === 'number' || type === 'integer') {
    return (
      <input {...common} type="number" step={type === 'integer' ? 1 : 'any'} min={schema.minimum} max={schema.maximum} value={typeof value === 'number' ? value : ''}
        onInput={(e) => { const t = (e.target as HTMLInputElement).value; onValue(t === '' ? undefined : Number(t)); }} />
    );
  }
  if (type === 'object' || type === 'array') return <JsonField {...common} value={value} kind={type} onValue={onValue} />;
  if (type === 'string') {
    const onInput = (e: Event) => onValue((e.target as HTMLInputElement).value);
    return schema.contentMediaType === 'text/javascript'
      ? <textarea {...common} class="code" rows={3} value={asText(value)} onInput={onInput} />
      : <input {...common} type="text" value={asText(value)} onInput={onInput} />;
  }
  return <input {...common} type="text" value={asText(value)} placeholder="text, a number, or JSON" onInput={(e) => { const t = (e.target as HTMLInputElement).value; onValue(t === '' ? undefined : readAny(t)); }} />;
}

const readEnum = (options: unknown[], text: string) => (text === '' ? undefined : options.find((o) => asText(o) === text));

/** JSON text for an object or array; kept as typed until it parses as the right kind. */
export function JsonField({ value, kind, onValue, ...common }: { id: string; disabled?: boolean; value: unknown; kind: 'object' | 'array'; onValue: (v: unknown) => void; 'aria-required': boolean; 'aria-describedby'?: string }) {
  const [text, setText] = useState(value === undefined ? '' : JSON.stringify(value, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    // Another source changed the value (a version shown, a reload): show it.
    try {
      if (JSON.stringify(JSON.parse(text || 'null')) === JSON.stringify(value ?? null)) return;
    } catch { /* the text was not JSON yet: replace it */ }
    setText(value === undefined ? '' : JSON.stringify(value, null, 2));
    setProblem(null);
  }, [JSON.stringify(value)]);
  const onInput = (t: string) => {
    setText(t);
    if (t.trim() === '') {
      setProblem(null);
      return onValue(undefined);
    }
    try {
      const parsed: unknown = JSON.parse(t);
      const ok = kind === 'array' ? Array.isArray(parsed) : parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed);
      if (!ok) return setProblem(`Must be a JSON ${kind}.`);
      setProblem(null);
      onValue(parsed);
    } catch {
      setProblem('Not valid JSON yet.');
    }
  };
  return (
    <>
      <textarea {...common} class="code" rows={4} value={text} aria-invalid={problem ? true : undefined} onInput={(e) => onInput((e.target as HTMLTextAreaElement).value)} />
      {problem && <p class="input-error" data-json-error>{problem}</p>}
    </>
  );
}
