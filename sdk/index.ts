/**
 * @mandi/sdk: what module code imports. It is bundled into the module and runs inside the sandbox,
 * so it holds only types, dependency-free functions and the schema builders (`Type`). Tools for
 * hosts and the CLI (validation, building, packaging) live in sdk/manifest, sdk/build and sdk/package.
 */
export { defineModule, operation, type OperationInput, type OperationOutput } from './define-module';
export * as Type from './runtime/schema';
export { typedCall, type OperationMap, type TypedCall } from './runtime/typed-call';
export type { Static, TSchema } from '@sinclair/typebox/type';
export type {
  DeclaredModule,
  DeclaredOperation,
  EventDeclarations,
  ModuleDeclaration,
  OperationDeclaration,
  OperationRoute,
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
export type { FetchInit, FetchResponse, Host, HostLog } from './runtime/host';
export type { DocumentParty, InvoiceDocument, InvoiceDocumentLine } from './runtime/documents';
export type {
  ColumnName,
  Db,
  DbTransaction,
  FieldCondition,
  FieldOperators,
  FindQuery,
  Row,
  Where,
  WhereQuery,
} from './runtime/db';
export type * from './manifest/manifest.types';
