/**
 * Whether one JSON schema accepts less (input) or promises less (output) than another. Rings use it
 * to refuse a breaking change without a major bump (rings/breaking); the manifest checks use it to
 * hold a provider module to the contract it implements (sdk/manifest/contract-rules.ts).
 */
export { inputNarrowings } from './input-schema';
export { outputNarrowings } from './output-schema';
export type { Schema } from './schema-parts';
