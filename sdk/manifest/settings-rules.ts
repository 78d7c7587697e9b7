/**
 * Rules for the manifest's `settings` the schema cannot express (docs/decisions/module-settings.md):
 * the whole is a usable JSON schema, `required` names declared properties, a secret
 * (`writeOnly: true`) is a string without a default (a default would ship the secret in module.json),
 * and every default satisfies its own property's schema, so GET never shows a value a PUT would refuse.
 */
import type { ManifestIssue } from './issues';
import { jsonSchemaIssues, valueIssues } from './json-schema-check';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function settingsIssues(doc: unknown): ManifestIssue[] {
  const settings = isObj(doc) ? doc.settings : undefined;
  if (!isObj(settings)) return [];
  const issues = jsonSchemaIssues(settings, '/settings');
  const properties = isObj(settings.properties) ? settings.properties : {};
  (Array.isArray(settings.required) ? settings.required : []).forEach((name, i) => {
    if (typeof name === 'string' && !(name in properties)) issues.push({ pointer: `/settings/required/${i}`, message: `names "${name}", which is not in settings.properties` });
  });
  for (const [name, prop] of Object.entries(properties)) {
    if (!isObj(prop)) continue;
    const at = `/settings/properties/${name}`;
    if (prop.writeOnly === true && prop.type !== 'string') issues.push({ pointer: `${at}/writeOnly`, message: 'a secret (writeOnly) must be of type "string"' });
    if (prop.writeOnly === true && 'default' in prop) issues.push({ pointer: `${at}/default`, message: 'a secret (writeOnly) has no default: module.json is public, the tenant sets the value' });
    else if ('default' in prop && jsonSchemaIssues(prop, at).length === 0) issues.push(...valueIssues(prop, prop.default, `${at}/default`, 'its setting’s schema'));
  }
  return issues;
}
