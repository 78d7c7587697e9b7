/** The prefixes a module publishes events under besides its alias: `events.namespace`, one name or several. */
export function eventNamespaces(namespace: string | readonly string[] | undefined): string[] {
  if (namespace === undefined) return [];
  return typeof namespace === 'string' ? [namespace] : [...namespace];
}
