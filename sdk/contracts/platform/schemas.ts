/** Schemas several core contracts share, written as the hand schemas they replace were. */
import * as Type from '../../runtime/schema';

/** Any JSON object (`{"type": "object"}`). */
export const JsonObject = (options: Record<string, unknown> = {}) => Type.Unsafe<Record<string, unknown>>({ ...options, type: 'object' });

/** A UUID (`format: uuid`). */
export const Uuid = () => Type.String({ format: 'uuid' });
