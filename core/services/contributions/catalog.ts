/**
 * What one module version adds to the three catalogs (node registry, screens, AI tools), and a
 * catalog: the parts of several module versions side by side. Parts depend only on the manifest, so
 * a part made once for `alias@version` serves every ring and tenant that runs that version.
 */
import type { Manifest } from '../../../sdk/manifest';
import { catalogTools, type CatalogTool } from './ai-tools';
import { catalogScreen, type CatalogScreen } from './screen-entries';
import type { NodeEntry } from '../../../sdk/contracts/workflow-resources';
import { nodeEntry } from './workflow-nodes';

export interface ModulePart {
  alias: string;
  version: string;
  nodes: NodeEntry[];
  screens: CatalogScreen[];
  tools: CatalogTool[];
}

export function modulePart(manifest: Manifest): ModulePart {
  const alias = manifest.name;
  const providers = manifest.mobile?.screenProviders ?? {};
  return {
    alias,
    version: manifest.version,
    nodes: (manifest.workflow?.nodes ?? []).map((n) => nodeEntry(alias, n)),
    screens: (manifest.mobile?.screens ?? []).map((s) => catalogScreen(alias, s, providers[s.id])),
    tools: catalogTools(alias, manifest),
  };
}

export class Catalog {
  readonly nodes: readonly NodeEntry[];
  readonly screens: readonly CatalogScreen[];
  readonly tools: readonly CatalogTool[];
  private readonly nodeIndex: ReadonlyMap<string, NodeEntry>;
  private readonly screenIndex: ReadonlyMap<string, CatalogScreen>;
  private readonly byAlias: ReadonlyMap<string, ModulePart>;

  /** `key` names the catalog in caches and the X-Catalog-Key header. */
  constructor(
    readonly key: string,
    readonly parts: readonly ModulePart[],
  ) {
    const sorted = [...parts].sort((a, b) => (a.alias < b.alias ? -1 : a.alias > b.alias ? 1 : 0));
    this.nodes = sorted.flatMap((p) => p.nodes);
    this.screens = sorted.flatMap((p) => p.screens);
    this.tools = sorted.flatMap((p) => p.tools);
    this.nodeIndex = new Map(this.nodes.map((n) => [n.identifier, n]));
    this.screenIndex = new Map(this.screens.map((s) => [s.entry.id, s]));
    this.byAlias = new Map(sorted.map((p) => [p.alias, p]));
  }

  node(identifier: string): NodeEntry | undefined {
    return this.nodeIndex.get(identifier);
  }

  screen(id: string): CatalogScreen | undefined {
    return this.screenIndex.get(id);
  }

  part(alias: string): ModulePart | undefined {
    return this.byAlias.get(alias);
  }
}
