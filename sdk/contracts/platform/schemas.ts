/** Schemas several core contracts share, written as the hand schemas they replace were. */
import * as Type from '../../runtime/schema';

/** Any JSON object (`{"type": "object"}`); an answer's may be typed as an interface (`JsonObject<object>()`). */
export const JsonObject = <T extends object = Record<string, unknown>>(options: Record<string, unknown> = {}) => Type.Unsafe<T>({ ...options, type: 'object' });

/** A UUID (`format: uuid`). */
export const Uuid = () => Type.String({ format: 'uuid' });
