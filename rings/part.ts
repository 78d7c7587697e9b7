/** The rings part (core/parts): release rings, promotion and the module lifecycle. */
import { platformPart } from '../core/parts/platform-parts';
import { createRings } from './index';

export const ringsPart = platformPart({
  id: 'rings',
  deps: ['central', 'kernel', 'registry', 'drivers', 'tenants', 'realtime', 'logger'],
  init: ({ realtime, ...deps }) => createRings({ ...deps, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload) }),
  stop: (rings) => rings.stop(),
});
