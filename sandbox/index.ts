/**
 * The module sandbox: the only part of Mandi that touches isolated-vm. See DESIGN.md, Sandbox, and
 * sandbox/README.md for the guest contract.
 */
export { SandboxRuntime } from './runtime';
export { ModuleSandbox } from './module-sandbox';
export { SandboxError, isSandboxError, type SandboxErrorCode, type GuestErrorInfo } from './errors';
export { DEFAULT_LIMITS } from './limits';
export type {
  DbMethod,
  FetchBody,
  FetchBodyPart,
  FetchRequest,
  FetchResponse,
  HostBridge,
  InvokeKind,
  InvokeRequest,
  LogLevel,
  ModuleStats,
  SandboxLimits,
  SandboxRuntimeOptions,
  SseEvent,
  StreamFormat,
  StreamSink,
} from './types';
