/**
 * @mandi/sdk: what module code imports. Everything here is either a type or a dependency-free
 * function, because it is bundled into the module and runs inside the sandbox. Tools for hosts and
 * the CLI (validation, packaging) live in sdk/manifest and sdk/package.
 */
export { defineModule, operation, type OperationInput, type OperationOutput } from './define-module';
export type { ContextUser, EventHandler, EventInfo, HandlerContext, ModuleDefinition, OperationHandler } from './runtime/context';
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
