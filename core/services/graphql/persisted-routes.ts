/**
 * Persisted queries (spec 1, GraphQL gateway; Persisted query states):
 *   GET    /graphql/persisted          200 {persisted_queries: [{hash, name, query, created_at}]}, by name
 *   POST   /graphql/persisted          {query, name} → 201 {hash, name}; 200 when the text was already
 *                                      registered (the name is updated). 422 {message, errors} when query
 *                                      is missing, not valid GraphQL syntax or not valid against the
 *                                      tenant's current schema, or name is missing; nothing is stored.
 *   DELETE /graphql/persisted/{hash}   200 {message, hash}; 404 when no such hash.
 * Registering and removing need the permission `graphql.persisted.manage`: in persisted-only mode
 * the list is the tenant's allow-list of operations. The hash is the SHA-256 (hex) of the exact text.
 * A stored query can still stop validating later, when an upgrade changes the schema; running it then
 * answers the gateway's 400 validation error.
 */
import type { RequestHandler, Router } from 'express';
import { requirePermission } from '../../kernel/auth/authenticate';
import { currentContext } from '../../kernel/context';
import { notFound } from '../../kernel/errors';
import * as Type from '../../../sdk/runtime/schema';
import { BodyReader } from '../../kernel/http/validate-body';
import type { GraphqlGateway } from './gateway';
import type { PersistedQueries } from './persisted-queries';

const MAX_QUERY_LENGTH = 100_000;
const PERSIST = Type.Object({ query: Type.String({ maxLength: MAX_QUERY_LENGTH }), name: Type.String({ maxLength: 255 }) });

export function registerPersistedRoutes(api: Router, deps: { persisted: PersistedQueries; gateway: GraphqlGateway; authenticated: RequestHandler; ready: Promise<unknown> }): void {
  const manage = requirePermission('graphql.persisted.manage');
  const tenantId = () => currentContext()!.tenant!.id;

  api.get('/graphql/persisted', deps.authenticated, async (_req, res) => {
    res.json({ persisted_queries: await deps.persisted.list(tenantId()) });
  });

  api.post('/graphql/persisted', deps.authenticated, manage, async (req, res) => {
    const body = new BodyReader(req.body, PERSIST);
    if (body.value.query !== undefined && !body.errors.query) {
      for (const e of await deps.gateway.problems(currentContext()!.tenant!, body.value.query)) {
        const parseFailed = e.extensions.code === 'GRAPHQL_PARSE_FAILED';
        body.fail('query', `${parseFailed ? 'The query is not valid GraphQL' : 'The query is not valid against the current schema'}: ${e.message}`);
      }
    }
    const { query, name } = body.done();
    await deps.ready;
    const { query: saved, created } = await deps.persisted.save(tenantId(), { query, name: name.trim(), userId: currentContext()!.user?.id ?? null });
    res.status(created ? 201 : 200).json({ hash: saved.hash, name: saved.name });
  });

  api.delete('/graphql/persisted/:hash', deps.authenticated, manage, async (req, res) => {
    await deps.ready;
    const hash = String(req.params.hash).toLowerCase();
    if (!(await deps.persisted.remove(tenantId(), hash))) throw notFound(`No persisted query has the hash ${hash}.`, { hash });
    res.json({ message: 'Persisted query removed.', hash });
  });
}
