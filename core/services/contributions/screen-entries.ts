/**
 * Server-driven screen metadata (spec 1, Server-driven screens), from a manifest's `mobile.screens[]`
 * and `mobile.screenProviders`, and the screens manifest whose `version` is an MD5 of every screen's
 * id and integer version: it changes when any screen's version changes, or a screen comes or goes.
 */
import { createHash } from 'node:crypto';
import type { Screen, ScreenProvider } from '../../../sdk/manifest';

export interface ScreenEntry {
  id: string;
  module: string;
  title: string;
  icon: string | null;
  layout: string;
  route: string;
  version: number;
  /** Entry points are shown in navigation; detail, edit and create screens are not (spec 1). */
  navigation: boolean;
}

export interface CatalogScreen {
  entry: ScreenEntry;
  provider: ScreenProvider | undefined;
}

/** The last part of the id names the screen's role: `orders.detail`, `products.edit-variant`. */
const NOT_ENTRY = /^(?:detail|edit|create)(?:[-_].*)?$/;

export function catalogScreen(module: string, screen: Screen, provider: ScreenProvider | undefined): CatalogScreen {
  const last = screen.id.slice(screen.id.lastIndexOf('.') + 1);
  return {
    entry: {
      id: screen.id,
      module,
      title: screen.title,
      icon: screen.icon ?? null,
      layout: screen.layout ?? 'scroll',
      route: screen.route,
      version: screen.version,
      navigation: !NOT_ENTRY.test(last),
    },
    provider,
  };
}

export interface ScreensManifest {
  version: string;
  screens: Array<{ id: string; version: number }>;
}

export function screensManifest(screens: readonly ScreenEntry[]): ScreensManifest {
  const list = screens.map((s) => ({ id: s.id, version: s.version })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const version = createHash('md5')
    .update(list.map((s) => `${s.id}@${s.version}`).join('\n'))
    .digest('hex');
  return { version, screens: list };
}
