/**
 * One module console page as GET /console-pages lists it (page-routes.ts) and the console's bridge
 * reads it (client/module-pages/page-rules.ts): the one type both sides use.
 */
export interface ModulePageEntry {
  module: string;
  path: string;
  label: string;
  icon?: string;
  /** The module's authenticated routes (method, path pattern) and its channel patterns: all the page may reach. */
  routes: Array<{ method: string; path: string }>;
  channels: string[];
}
