/**
 * A manifest problem located by JSON pointer (RFC 6901) into module.json, and how problems print.
 * Shared by schema validation, the semantic rules, file checks and package reading.
 */

export interface ManifestIssue {
  /** JSON pointer into module.json, e.g. "/api/provides/0/name"; "" is the whole document. */
  pointer: string;
  message: string;
}

/** Pointer to a child of `base`, escaping "~" and "/" in the key as RFC 6901 requires. */
export function childPointer(base: string, key: string | number): string {
  return `${base}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** One `<pointer>: <message>` line per issue, the root shown as "(root)". */
export function formatIssues(issues: readonly ManifestIssue[]): string {
  return issues.map((i) => `${i.pointer || '(root)'}: ${i.message}`).join('\n');
}

/** Sorted by pointer (grouping problems of one place together), duplicates dropped. */
export function tidyIssues(issues: readonly ManifestIssue[]): ManifestIssue[] {
  const seen = new Set<string>();
  const out: ManifestIssue[] = [];
  for (const issue of issues) {
    const key = `${issue.pointer}\u0000${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue);
  }
  return out.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/** Thrown by loadManifest and readPackage; `errors` holds every problem found, not just the first. */
export class ManifestError extends Error {
  constructor(
    readonly errors: ManifestIssue[],
    /** Where the manifest came from (a file path or a package name), for the message. */
    readonly source: string,
  ) {
    super(`Invalid module manifest ${source}:\n${formatIssues(errors).replace(/^/gm, '  ')}`);
    this.name = 'ManifestError';
  }
}
