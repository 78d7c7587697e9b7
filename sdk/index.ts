/**
 * @mandi/sdk: what module code imports. It is bundled into the module and runs inside the sandbox,
 * so it holds only types, dependency-free functions and the schema builders (`Type`). Tools for
 * hosts and the CLI (validation, building, packaging) live in sdk/manifest, sdk/build and sdk/package.
 */
export { defineModule, operation, type OperationInput, type OperationOutput } from './define-module';
export * as Type from './runtime/schema';
export { columnSchema, rowSchema } from './runtime/row-schema';
export { typedCall, type OperationMap, type TypedCall } from './runtime/typed-call';
export { realtime, type RealtimeApi, type VisitorGrantResult } from './runtime/realtime';
export { related, type Related, type RelatedChildrenOutput, type RelatedParentOutput, type RelatedTenant } from './runtime/related';
export { defineContract, payment, shipping, type Contract, type ContractOperation, type ContractOperations } from './contracts';
export { moveIntoSecrets, secrets, type SecretHint, type Secrets } from './runtime/secrets';
export { defineErrors, ModuleError, type ErrorDefinition } from './runtime/errors';
export { moveIntoSettings, settings, type Settings, type SettingsOf } from './runtime/settings';
export { amountInWords, groupIndian, indianDate } from './runtime/indian-numbers';
export { jobs, type EnqueueOptions, type JobInfo, type JobInput, type Jobs, type JobStatus } from './runtime/jobs';
export type { Static, TSchema } from '@sinclair/typebox/type';
export type {
  DeclaredModule,
  DeclaredOperation,
  EventDeclarations,
  ModuleDeclaration,
  OperationDeclaration,
  OperationNode,
  OperationRoute,
  PublicOperationRoute,
  TypedHandler,
} from './runtime/declaration';
export type {
  ContextUser,
  EventHandler,
  EventInfo,
  HandlerContext,
  ModuleDefinition,
  OperationHandler,
  SseEventInit,
  StreamWriter,
} from './runtime/context';
export type { BytesFetchResponse, FetchBodyReader, FetchInit, FetchMultipart, FetchResponse, Host, HostLog, StreamingFetchResponse } from './runtime/host';
export type { DocumentLayout, LayoutBlock, LayoutCell, LayoutColumn, LayoutLeaf } from './runtime/document-layout';
export type {
  ColumnName,
  Db,
  DbTransaction,
  FieldCondition,
  FieldOperators,
  FindQuery,
  Row,
  RowOf,
  Where,
  WhereQuery,
} from './runtime/db';
export type * from './manifest/manifest.types';
