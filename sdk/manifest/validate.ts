/**
 * validateManifest and loadManifest: the one gate every module.json passes, in the sdk (build, pack),
 * the registry (publish) and the core (install). Structural rules come from manifest.schema.json,
 * the rest from semantic-rules.ts, contract-rules.ts, edge-permissions.ts, agent-tools.ts and settings-rules.ts; all run every time, so one pass lists every problem.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ManifestError, tidyIssues, type ManifestIssue } from './issues';
import type { Manifest } from './manifest.types';
import { referencedFiles } from './referenced-files';
import { schemaIssues } from './schema-check';
import { contractIssues } from './contract-rules';
import { edgePermissionIssues } from './edge-permissions';
import { semanticIssues } from './semantic-rules';
import { agentToolIssues } from './agent-tools';
import { settingsIssues } from './settings-rules';

export type ManifestValidation = { ok: true; manifest: Manifest } | { ok: false; errors: ManifestIssue[] };

/**
 * Checks a parsed module.json. On success `manifest` is a copy with the schema defaults filled in
 * (graphql_expose, public, auto_resolve, error_shape, main, limits); the argument is never modified.
 */
export function validateManifest(value: unknown): ManifestValidation {
  let doc: unknown;
  try {
    doc = structuredClone(value);
  } catch {
    return { ok: false, errors: [{ pointer: '', message: 'must be plain JSON data' }] };
  }
  const errors = tidyIssues([...schemaIssues(doc), ...semanticIssues(doc), ...contractIssues(doc), ...edgePermissionIssues(doc), ...agentToolIssues(doc), ...settingsIssues(doc)]);
  return errors.length === 0 ? { ok: true, manifest: doc as Manifest } : { ok: false, errors };
}

/**
 * Reads and validates module.json (`file` is the file or the module folder holding it) and checks
 * that the files it names exist. Throws ManifestError listing every problem, one
 * `<pointer>: <message>` line each.
 */
export async function loadManifest(file: string): Promise<Manifest> {
  const manifestPath = (await isDirectory(file)) ? path.join(file, 'module.json') : file;
  let text: string;
  try {
    text = await readFile(manifestPath, 'utf8');
  } catch (err) {
    throw new ManifestError([{ pointer: '', message: `cannot be read: ${(err as Error).message}` }], manifestPath);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ManifestError([{ pointer: '', message: `is not valid JSON: ${(err as Error).message}` }], manifestPath);
  }
  const result = validateManifest(parsed);
  if (!result.ok) throw new ManifestError(result.errors, manifestPath);

  const root = path.dirname(manifestPath);
  const missing: ManifestIssue[] = [];
  for (const ref of referencedFiles(result.manifest)) {
    if (!(await isFile(path.join(root, ref.path)))) missing.push({ pointer: ref.pointer, message: `file ${ref.path} does not exist` });
  }
  if (missing.length > 0) throw new ManifestError(missing, manifestPath);
  return result.manifest;
}

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() ?? false;
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isFile() ?? false;
}
