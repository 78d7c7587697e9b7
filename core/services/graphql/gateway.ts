/**
 * One GraphQL request from body to result (spec 1, GraphQL gateway):
 *   read the body → find the operation text (ad hoc, or by persisted hash; persisted-only tenants
 *   refuse the rest) → the schema of the tenant's (ring, module fingerprint) → parse + validate
 *   (cached; introspection refused when off) → pick the operation → coerce variables → limits →
 *   execute, resolvers calling the bus → audit the mutation when the tenant asks for it.
 * Anything refused before execution is a GraphqlRequestError (its errors and the HTTP status);
 * execution always answers 200 with data and errors, as GraphQL-over-HTTP clients expect.
 */
import type { Request } from 'express';
import {
  execute,
  getOperationAST,
  getVariableValues,
  GraphQLError,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFormattedError,
  type OperationDefinitionNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import type { AuditWriter } from '../../kernel/bus/audit-writer';
import type { Bus } from '../../kernel/bus/bus';
import type { Clock } from '../../kernel/clock';
import type { Config } from '../../config';
import { currentContext } from '../../kernel/context';
import { MandiError } from '../../kernel/errors';
import { graphqlErrors } from './errors';
import type { Logger } from '../../kernel/logger';
import type { ModuleHost } from '../../kernel/modules/module-host';
import { RequestBusCalls } from './bus-calls';
import { DocumentCache } from './documents';
import { canFor, type GatewayContext } from './gateway-context';
import type { GatewaySettings, GatewaySettingsStore } from './gateway-settings';
import { formatExecutionError } from './graphql-errors';
import { stableJson } from './json-scalar';
import { checkLimits, complexityVariables, measureOperation, queryComplexity } from './limits';
import { auditMutation, rootFields } from './mutation-audit';
import { HASH_PATTERN, sha256Hex, type PersistedQueries } from './persisted-queries';
import { readGraphqlRequest, type GraphqlRequest } from './request-body';
import type { SchemaCache } from './schema-cache';

export interface GatewayDeps {
  config: Pick<Config, 'env' | 'graphqlIntrospection' | 'graphql'>;
  modules: ModuleHost;
  bus: Bus;
  schemas: SchemaCache;
  persisted: PersistedQueries;
  settings: GatewaySettingsStore;
  audit: AuditWriter;
  clock: Clock;
  logger: Logger;
}

/** A request refused before execution: one or more errors and the HTTP status. */
export class GraphqlRequestError extends Error {
  constructor(readonly status: number, readonly errors: ReadonlyArray<MandiError | GraphQLError>) {
    super(errors[0]?.message ?? 'Bad request.');
  }
}

interface OperationShape {
  depth: number;
  aliases: number;
  /** Variables the complexity score depends on. */
  variables: string[];
}

export interface GatewayResult {
  data?: ExecutionResult['data'];
  errors?: GraphQLFormattedError[];
  extensions?: Record<string, unknown>;
}

interface OperationText {
  text: string;
  hash: string;
  persisted: boolean;
}

export class GraphqlGateway {
  private readonly documents = new DocumentCache();
  /** Depth and aliases depend on the text and the operation only: measured once per document. */
  private readonly shapes = new LRUCache<string, OperationShape>({ max: 5_000 });
  /** Complexity per schema, operation and the values of the variables it depends on (see limits.ts). */
  private readonly complexities = new LRUCache<string, number>({ max: 20_000 });

  constructor(private readonly deps: GatewayDeps) {}

  /** Introspection: the tenant's switch when set, else on outside production or with GRAPHQL_INTROSPECTION=true. */
  introspectionAllowed(settings: GatewaySettings): boolean {
    return settings.introspection ?? (this.deps.config.graphqlIntrospection || this.deps.config.env !== 'production');
  }

  playgroundAllowed(settings: GatewaySettings): boolean {
    return settings.playground ?? this.deps.config.graphql.playground;
  }

  /**
   * Why a text would be refused against the tenant's current schema: the parse error, or the
   * validation errors; none when it is valid. Introspection is not refused here: its switch is
   * checked each time a query runs.
   */
  async problems(tenant: { id: string; ring: string }, text: string): Promise<readonly GraphQLError[]> {
    const built = await this.deps.schemas.get(tenant.ring, await this.deps.modules.modulesFor(tenant.id));
    return this.documents.prepare(built, text, sha256Hex(text), true).errors ?? [];
  }

  async run(req: Request): Promise<GatewayResult> {
    const ctx = currentContext()!;
    const tenant = ctx.tenant!;
    const body = readGraphqlRequest(req);
    const [settings, modules] = await Promise.all([this.deps.settings.get(tenant.id), this.deps.modules.modulesFor(tenant.id)]);
    const op = await this.operationText(tenant.id, body, settings);
    const built = await this.deps.schemas.get(tenant.ring, modules);

    const prepared = this.documents.prepare(built, op.text, op.hash, this.introspectionAllowed(settings));
    if (prepared.errors) throw new GraphqlRequestError(400, prepared.errors);
    const { document } = prepared;
    const operation = this.pickOperation(document, body.operationName);
    if (operation.operation === 'subscription') {
      throw new GraphqlRequestError(400, [graphqlErrors.subscriptionsNotSupported()]);
    }
    const coerced = getVariableValues(built.schema, operation.variableDefinitions ?? [], body.variables, { maxErrors: 25 });
    if (coerced.errors) {
      throw new GraphqlRequestError(400, coerced.errors.map((e) => new GraphQLError(e.message, { nodes: e.nodes, extensions: { code: 'GRAPHQL_VARIABLES_INVALID' } })));
    }

    const shapeKey = `${op.hash}:${body.operationName ?? ''}`;
    let shape = this.shapes.get(shapeKey);
    if (!shape) this.shapes.set(shapeKey, (shape = { ...measureOperation(document, operation), variables: complexityVariables(document) }));
    const broken = checkLimits(this.deps.config.graphql.limits, shape, () => {
      const values = shape.variables.map((name) => coerced.coerced[name]);
      const key = `${built.key}:${shapeKey}:${stableJson(values)}`;
      let score = this.complexities.get(key);
      if (score === undefined) this.complexities.set(key, (score = queryComplexity(built.schema, document, body.operationName, coerced.coerced)));
      return score;
    });
    if (broken.length) throw new GraphqlRequestError(400, broken);

    const user = ctx.user ?? null;
    const bus = new RequestBusCalls(this.deps.bus, { tenantId: tenant.id, user, permissions: ctx.permissions, requestId: ctx.requestId });
    const contextValue: GatewayContext = {
      tenantId: tenant.id,
      ring: tenant.ring,
      user,
      permissions: ctx.permissions,
      requestId: ctx.requestId,
      request: req,
      can: canFor(user, ctx.permissions),
      bus,
    };
    const result = await execute({ schema: built.schema, document, operationName: body.operationName, variableValues: body.variables, contextValue });
    const errors = result.errors?.map((e) => formatExecutionError(e, this.deps.logger, ctx.requestId));

    if (operation.operation === 'mutation' && settings.auditMutations) {
      auditMutation(this.deps.audit, new Date(this.deps.clock.now()), {
        tenantId: tenant.id,
        user,
        operationName: operation.name?.value,
        fields: rootFields(document, operation),
        queryHash: op.hash,
        persisted: op.persisted,
        variables: body.variables,
        errorCodes: (errors ?? []).map((e) => String(e.extensions?.code ?? 'ERROR')),
        requestId: ctx.requestId,
      });
    }
    return { ...(errors ? { errors } : {}), data: result.data };
  }

  /** The text to run: the query sent, or the registered one its hash names (rules 1-2). */
  private async operationText(tenantId: string, body: GraphqlRequest, settings: GatewaySettings): Promise<OperationText> {
    const pq = body.extensions.persistedQuery;
    if (pq !== undefined && pq !== null) {
      const { sha256Hash, version } = (typeof pq === 'object' ? pq : {}) as { sha256Hash?: unknown; version?: unknown };
      if (version !== 1) {
        throw new GraphqlRequestError(400, [graphqlErrors.persistedQueryVersion()]);
      }
      if (typeof sha256Hash !== 'string' || !HASH_PATTERN.test(sha256Hash)) {
        throw new GraphqlRequestError(400, [graphqlErrors.persistedQueryHashInvalid()]);
      }
      if (body.query !== undefined) {
        if (sha256Hex(body.query) !== sha256Hash) {
          throw new GraphqlRequestError(400, [graphqlErrors.persistedQueryHashMismatch()]);
        }
        if (settings.persistedQueriesOnly && !(await this.deps.persisted.find(tenantId, sha256Hash))) throw persistedOnly();
        return { text: body.query, hash: sha256Hash, persisted: true };
      }
      const stored = await this.deps.persisted.find(tenantId, sha256Hash);
      if (!stored) {
        throw new GraphqlRequestError(400, [
          graphqlErrors.persistedQueryNotFound(sha256Hash),
        ]);
      }
      return { text: stored.query, hash: sha256Hash, persisted: true };
    }
    if (body.query === undefined || !body.query.trim()) {
      throw new GraphqlRequestError(400, [graphqlErrors.queryMissing()]);
    }
    const hash = sha256Hex(body.query);
    // A registered text sent in full is still a registered operation.
    if (settings.persistedQueriesOnly && !(await this.deps.persisted.find(tenantId, hash))) throw persistedOnly();
    return { text: body.query, hash, persisted: false };
  }

  private pickOperation(document: DocumentNode, operationName: string | undefined): OperationDefinitionNode {
    const operation = getOperationAST(document, operationName);
    if (operation) return operation;
    const error = operationName
      ? graphqlErrors.operationNameUnknown(operationName)
      : graphqlErrors.operationNameRequired();
    throw new GraphqlRequestError(400, [error]);
  }
}

function persistedOnly(): GraphqlRequestError {
  return new GraphqlRequestError(403, [
    graphqlErrors.persistedOnly(),
  ]);
}
