/** The rings part (core/parts): release rings, promotion and the module lifecycle. */
import { centralRef } from '../core/data/parts';
import { driversRef } from '../core/drivers/parts';
import { loggerRef } from '../core/logger';
import { kernelRef } from '../core/modules/part';
import { definePart, partRef } from '../core/parts';
import { realtimeRef } from '../core/realtime/part';
import { tenantsRef } from '../core/tenancy/part';
import { registryRef } from '../registry/part';
import { createRings, type Rings } from './index';

export const ringsRef = partRef<Rings>('rings');

export const ringsPart = definePart({
  ref: ringsRef,
  deps: { central: centralRef, kernel: kernelRef, registry: registryRef, drivers: driversRef, tenants: tenantsRef, realtime: realtimeRef, logger: loggerRef },
  init: ({ realtime, ...deps }) => createRings({ ...deps, broadcast: (tenantId, channel, event, payload) => realtime.broadcast(tenantId, channel, event, payload) }),
  stop: (rings) => rings.stop(),
});
