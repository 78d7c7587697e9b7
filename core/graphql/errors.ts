/** Errors of the GraphQL gateway's HTTP side and of modules' resolver maps (spec 1, GraphQL). */
import { defineErrors } from '../errors';

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
});
