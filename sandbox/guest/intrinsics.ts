/**
 * The intrinsics the prelude calls, captured when its script runs: first in a fresh context, before
 * the module bundle. Guest code may rewrite any prototype or global afterwards, so the prelude never
 * looks a method up on a shared object again; it calls these through `apply`.
 */
export const G = globalThis as unknown as Record<string, unknown>;
export const freeze = Object.freeze;
export const create = Object.create as <T extends object>(proto: null) => T;
export const hasOwn = Object.hasOwn;
export const keysOf = Object.keys;
export const ownNames = Object.getOwnPropertyNames;
export const defineProperty = Object.defineProperty;
export const apply = Reflect.apply;
export const stringify = JSON.stringify;
export const parse = JSON.parse;
export const isArray = Array.isArray;
export const ErrorCtor = Error;
export const FunctionCtor = Function;
export const TypeErrorCtor = TypeError;
export const PromiseCtor = Promise;
export const StringCtor = String;
export const Uint8ArrayCtor = Uint8Array;
export const ArrayBufferCtor = ArrayBuffer;
export const isView = ArrayBuffer.isView;
export const asyncIterator = Symbol.asyncIterator;
export const slice = String.prototype.slice;
