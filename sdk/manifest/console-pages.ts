/** Where `mandi module build` writes a console page's browser bundle, and where the host reads it (docs/decisions/console-pages.md). */
import type { ConsolePage } from './manifest.types';

/** `console/inbox.tsx` → `dist/console/inbox.js`: the entry's file name, without its extension. */
export const consolePageBundle = (page: Pick<ConsolePage, 'entry'>): string => `dist/console/${page.entry.slice(page.entry.lastIndexOf('/') + 1).replace(/\.[a-z]+$/, '')}.js`;
