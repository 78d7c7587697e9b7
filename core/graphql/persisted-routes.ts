/**
 * Persisted queries (spec 1, GraphQL gateway; Persisted query states):
 *   GET    /graphql/persisted          200 {persisted_queries: [{hash, name, query, created_at}]}, by name
 *   POST   /graphql/persisted          {query, name} → 201 {hash, name}; 200 when the text was already
 *                                      registered (the name is updated). 422 {message, errors} when query
 *                                      is missing or not valid GraphQL syntax, or name is missing.
 *   DELETE /graphql/persisted/{hash}   200 {message, hash}; 404 when no such hash.
 * Registering and removing need the permission `graphql.persisted.manage`: in persisted-only mode
 * the list is the tenant's allow-list of operations. The hash is the SHA-256 (hex) of the exact text;
 * the text is checked for syntax only, since the schema it runs against changes with the ring.
 */
import type { RequestHandler, Router } from 'express';
import { parse } from 'graphql';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import { notFound } from '../errors';
import { BodyReader } from '../http/validate-body';
import type { PersistedQueries } from './persisted-queries';

const MAX_QUERY_LENGTH = 100_000;

export function registerPersistedRoutes(api: Router, deps: { persisted: PersistedQueries; authenticated: RequestHandler; ready: Promise<unknown> }): void {
  const manage = requirePermission('graphql.persisted.manage');
  const tenantId = () => currentContext()!.tenant!.id;

  api.get('/graphql/persisted', deps.authenticated, async (_req, res) => {
    res.json({ persisted_queries: await deps.persisted.list(tenantId()) });
  });

  api.post('/graphql/persisted', deps.authenticated, manage, async (req, res) => {
    const body = new BodyReader(req.body);
    const query = body.string('query', { required: true, max: MAX_QUERY_LENGTH });
    const name = body.string('name', { required: true, max: 255 });
    if (query !== undefined && typeof query === 'string') {
      try {
        parse(query, { noLocation: true });
      } catch (err) {
        body.fail('query', `The query is not valid GraphQL: ${(err as Error).message}`);
      }
    }
    body.done();
    await deps.ready;
    const { query: saved, created } = await deps.persisted.save(tenantId(), { query: query!, name: name!.trim(), userId: currentContext()!.user?.id ?? null });
    res.status(created ? 201 : 200).json({ hash: saved.hash, name: saved.name });
  });

  api.delete('/graphql/persisted/:hash', deps.authenticated, manage, async (req, res) => {
    await deps.ready;
    const hash = String(req.params.hash).toLowerCase();
    if (!(await deps.persisted.remove(tenantId(), hash))) throw notFound(`No persisted query has the hash ${hash}.`, { hash });
    res.json({ message: 'Persisted query removed.', hash });
  });
}
