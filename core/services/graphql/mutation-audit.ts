/**
 * Spec 1, GraphQL rule 8: with the tenant setting `audit_mutations` on, every GraphQL mutation is
 * written to the audit log as action "graphql.mutation", beside the bus's own record of each
 * operation it called. Variables are not stored (they may hold personal data or secrets), only
 * their names; the query hash identifies the exact text.
 */
import { Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { AuditWriter } from '../../kernel/bus/audit-writer';
import type { UserRef } from '../../kernel/context';

/** Root field names of the operation, fragments included. */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const names = new Set<string>();
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) names.add(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = fragments.get(sel.name.value);
        if (f) walk(f.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...names];
}

export function auditMutation(
  audit: AuditWriter,
  at: Date,
  entry: {
    tenantId: string;
    user: UserRef | null;
    operationName: string | undefined;
    fields: string[];
    queryHash: string;
    persisted: boolean;
    variables: Record<string, unknown>;
    errorCodes: string[];
    requestId: string | undefined;
  },
): void {
  audit.write({
    tenant_id: entry.tenantId,
    actor_type: entry.user ? 'user' : 'system',
    actor_id: entry.user ? String(entry.user.id) : null,
    action: 'graphql.mutation',
    target: (entry.operationName ?? entry.fields.join(',')).slice(0, 255),
    status: entry.errorCodes.length ? 'error' : 'ok',
    details: {
      operation_name: entry.operationName ?? null,
      fields: entry.fields,
      query_hash: entry.queryHash,
      persisted: entry.persisted,
      variables: Object.keys(entry.variables),
      ...(entry.errorCodes.length ? { errors: entry.errorCodes } : {}),
      ...(entry.requestId ? { request_id: entry.requestId } : {}),
    },
    created_at: at,
  });
}
