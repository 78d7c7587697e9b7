/** The clock part (core/parts): the one platform clock every time rule reads. */
import { Clock } from './clock';
import { platformPart } from './parts/platform-parts';

export const clockPart = platformPart({ id: 'clock', deps: [], init: () => new Clock() });
