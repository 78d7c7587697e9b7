/**
 * Notification rule templates (spec 3, Notification rule: "template (string with placeholders)").
 * Placeholders are `{{name}}` (spaces inside the braces allowed) with the spec's six names; any other
 * name is refused when the rule is saved, so a typo never reaches a customer as literal braces.
 * Rendering replaces each placeholder with its value as plain text (an absent value renders empty).
 */
import { invalid } from './errors';

export const PLACEHOLDERS = ['order_number', 'customer_name', 'total', 'status', 'tracking_url', 'return_number'] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type TemplateValues = Record<Placeholder, string>;

const TAG = /\{\{\s*([^{}]*?)\s*\}\}/g;

const isPlaceholder = (name: string): name is Placeholder => (PLACEHOLDERS as readonly string[]).includes(name);

/** Names used in a template that are not placeholders, in order of first use. */
export function unknownPlaceholders(template: string): string[] {
  const names = [...template.matchAll(TAG)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !isPlaceholder(n)))];
}

/** 422 naming every unknown placeholder of `field`. */
export function checkTemplate(field: string, template: string): void {
  const unknown = unknownPlaceholders(template);
  if (unknown.length) {
    throw invalid(field, `Unknown placeholder(s): ${unknown.map((n) => `{{${n}}}`).join(', ')}. Known: ${PLACEHOLDERS.map((n) => `{{${n}}}`).join(', ')}.`);
  }
}

export function render(template: string, values: Partial<TemplateValues>): string {
  return template.replace(TAG, (_tag, name: string) => (isPlaceholder(name) ? (values[name] ?? '') : ''));
}

/** Values for a test send without an order (POST …/test with no order_id). */
export const SAMPLE_VALUES: TemplateValues = {
  order_number: 'ORD-SAMPLE-0001',
  customer_name: 'Asha Rao',
  total: '1499.00',
  status: 'shipped',
  tracking_url: 'https://track.example.com/ORD-SAMPLE-0001',
  return_number: 'RET-SAMPLE-0001',
};
