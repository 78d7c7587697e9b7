/** The clock part (core/kernel/parts): the one platform clock every time rule reads. */
import { Clock } from './clock';
import { definePart, partRef } from './parts';

export const clockRef = partRef<Clock>('clock');

export const clockPart = definePart({ ref: clockRef, init: () => new Clock() });
