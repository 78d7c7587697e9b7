/**
 * Reads a GraphQL-over-HTTP POST body: {query?, variables?, operationName?, extensions?}. Anything
 * else is a request error (400), and a body that is not JSON at all is 415: the gateway speaks
 * application/json only (spec 1, GraphQL gateway: POST /graphql).
 */
import type { Request } from 'express';
import { graphqlErrors } from './errors';
import { isObject } from '../../kernel/is-object';

export interface GraphqlRequest {
  query?: string;
  variables: Record<string, unknown>;
  operationName?: string;
  extensions: Record<string, unknown>;
}

export function readGraphqlRequest(req: Request): GraphqlRequest {
  if (!req.is('application/json')) {
    throw graphqlErrors.notJson();
  }
  const body: unknown = req.body;
  if (Array.isArray(body)) throw graphqlErrors.batchNotSupported();
  if (!isObject(body)) throw graphqlErrors.badRequest('The body must be a JSON object: {query, variables, operationName, extensions}.');
  const { query, variables, operationName, extensions } = body;
  if (query !== undefined && query !== null && typeof query !== 'string') throw graphqlErrors.badRequest('"query" must be a string.');
  if (variables !== undefined && variables !== null && !isObject(variables)) throw graphqlErrors.badRequest('"variables" must be an object.');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') throw graphqlErrors.badRequest('"operationName" must be a string.');
  if (extensions !== undefined && extensions !== null && !isObject(extensions)) throw graphqlErrors.badRequest('"extensions" must be an object.');
  return {
    query: typeof query === 'string' ? query : undefined,
    variables: isObject(variables) ? variables : {},
    operationName: typeof operationName === 'string' && operationName ? operationName : undefined,
    extensions: isObject(extensions) ? extensions : {},
  };
}
