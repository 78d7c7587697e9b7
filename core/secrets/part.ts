/** The platform key part (core/parts): the one key ring every part derives its keys from (key-source.ts). */
import { platformPart } from '../parts/platform-parts';
import { loadAppKeys } from './key-source';

export const keysPart = platformPart({
  id: 'keys',
  deps: ['config', 'central', 'logger'],
  init: ({ config, central, logger }) => loadAppKeys(config, central, logger),
});
