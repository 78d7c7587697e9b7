/** The platform key part (core/kernel/parts): the one key ring every part derives its keys from (key-source.ts). */
import type { AppKeys } from './app-key';
import { configRef } from '../../config';
import { centralRef } from '../data/parts';
import { loggerRef } from '../logger';
import { definePart, partRef } from '../parts';
import { loadAppKeys } from './key-source';

export const keysRef = partRef<AppKeys>('keys');

export const keysPart = definePart({
  ref: keysRef,
  deps: { config: configRef, central: centralRef, logger: loggerRef },
  init: ({ config, central, logger }) => loadAppKeys(config, central, logger),
});
