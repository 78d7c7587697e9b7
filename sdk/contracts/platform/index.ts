/**
 * Every core operation's contract (./core-contract.ts), by area. The host registers a handler for
 * each (core/kernel/bus/core-operation.ts); module code takes only their types (`import type`), never these
 * values, so the schema builders stay out of its bundle.
 */
export { coreContract, type CoreContract, type CoreInput, type CoreOutput } from './core-contract';
export * from './data';
export * from './documents';
export * from './fetch-origins';
export * from './files';
export * from './jobs';
export * from './mail';
export * from './notifications';
export * from './platform';
export * from './public-tokens';
export * from './realtime';
export * from './secrets';
export * from './settings';
export * from './tenants';
export * from './tools';
export * from './webhooks';
export * from './workflow-engine';
