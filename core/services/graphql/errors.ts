/** Errors of the GraphQL gateway's HTTP side and of modules' resolver maps (spec 1, GraphQL). */
import { defineErrors } from '../../kernel/errors';

export const graphqlErrors = defineErrors('graphql', {
  notJson: {
    code: 'UNSUPPORTED_MEDIA_TYPE', status: 415,
    message: () => 'Send the GraphQL request as a JSON body with Content-Type: application/json.',
  },
  playgroundDisabled: {
    code: 'PLAYGROUND_DISABLED', status: 404,
    doc: 'The GraphQL playground is off here (GRAPHQL_PLAYGROUND, or the tenant setting graphql.playground).',
    message: () => 'The GraphQL playground is disabled here (GRAPHQL_PLAYGROUND, or the tenant setting graphql.playground).',
  },
  persistedOnly: {
    code: 'PERSISTED_QUERY_REQUIRED', status: 403,
    doc: 'The tenant runs registered persisted queries only (graphql.persisted_queries_only): send extensions.persistedQuery with a registered hash.',
    message: () =>
      'This tenant runs registered persisted queries only (graphql.persisted_queries_only): send extensions.persistedQuery with the hash of a registered operation.',
  },
  resolversInvalid: {
    code: 'GRAPHQL_RESOLVERS_INVALID', status: 422,
    doc: "A module's GraphQL resolver map does not fit its schema or operations (details.problems).",
    message: (file: string, problems: string[]) => `${file}: ${problems.join('; ')}`,
    details: (file: string, problems: string[]) => ({ file, problems }),
  },
  depthLimit: {
    code: 'GRAPHQL_DEPTH_LIMIT', status: 400,
    doc: 'The operation nests deeper than the tenant allows (graphql.limits.depth); details give the limit, its max and the value.',
    message: (max: number, value: number) => `Query depth ${value} exceeds the limit of ${max} (graphql.limits.depth).`,
    details: (max: number, value: number) => ({ limit: 'graphql.limits.depth', max, value }),
  },
  aliasLimit: {
    code: 'GRAPHQL_ALIAS_LIMIT', status: 400,
    doc: 'The operation uses more aliases than the tenant allows (graphql.limits.aliases).',
    message: (max: number, value: number) => `The operation uses ${value} aliases; the limit is ${max} (graphql.limits.aliases).`,
    details: (max: number, value: number) => ({ limit: 'graphql.limits.aliases', max, value }),
  },
  complexityLimit: {
    code: 'GRAPHQL_COMPLEXITY_LIMIT', status: 400,
    doc: 'The operation costs more than the tenant allows (graphql.limits.complexity, fields weighted by list sizes).',
    message: (max: number, value: number) => `Query complexity ${value} exceeds the limit of ${max} (graphql.limits.complexity).`,
    details: (max: number, value: number) => ({ limit: 'graphql.limits.complexity', max, value }),
  },
  badRequest: {
    code: 'BAD_REQUEST', status: 400,
    message: (message: string) => message,
  },
  batchNotSupported: {
    code: 'BATCH_NOT_SUPPORTED', status: 400,
    doc: 'A JSON array of operations was sent: the gateway runs one operation per request.',
    message: () => 'Batched requests (a JSON array) are not supported: send one operation per request.',
  },
  subscriptionsNotSupported: {
    code: 'SUBSCRIPTIONS_NOT_SUPPORTED', status: 400,
    doc: 'The operation is a subscription; the gateway runs queries and mutations (spec 1, GraphQL rule 10).',
    message: () => 'Subscriptions are not provided by this gateway (spec 1, GraphQL rule 10).',
  },
  persistedQueryVersion: {
    code: 'PERSISTED_QUERY_VERSION_NOT_SUPPORTED', status: 400,
    doc: 'extensions.persistedQuery.version is not 1.',
    message: () => 'extensions.persistedQuery.version must be 1.',
  },
  persistedQueryHashInvalid: {
    code: 'PERSISTED_QUERY_HASH_INVALID', status: 400,
    doc: 'extensions.persistedQuery.sha256Hash is not 64 lowercase hex characters.',
    message: () => 'extensions.persistedQuery.sha256Hash must be the SHA-256 of the operation text, 64 lowercase hex characters.',
  },
  persistedQueryHashMismatch: {
    code: 'PERSISTED_QUERY_HASH_MISMATCH', status: 400,
    doc: 'The query sent with a persisted-query hash is not the text of that hash.',
    message: () => 'extensions.persistedQuery.sha256Hash is not the SHA-256 of the query sent.',
  },
  persistedQueryNotFound: {
    code: 'PERSISTED_QUERY_NOT_FOUND', status: 400,
    doc: 'No persisted query of this tenant has the hash sent; register it with POST /graphql/persisted.',
    message: (hash: string) => `No persisted query has the hash ${hash}; register it with POST /graphql/persisted.`,
    details: (hash: string) => ({ hash }),
  },
  queryMissing: {
    code: 'QUERY_MISSING', status: 400,
    doc: 'The request has neither a query nor a persisted-query hash.',
    message: () => 'Send the operation text as "query", or a persisted query\'s hash as extensions.persistedQuery.',
  },
  operationNameUnknown: {
    code: 'OPERATION_NAME_UNKNOWN', status: 400,
    doc: 'operationName names no operation of the document.',
    message: (operationName: string) => `The document has no operation named "${operationName}".`,
    details: (operationName: string) => ({ operationName }),
  },
  operationNameRequired: {
    code: 'OPERATION_NAME_REQUIRED', status: 400,
    doc: 'The document has several operations and no operationName says which one to run.',
    message: () => 'The document has several operations: say which one to run with "operationName".',
  },
});
