/**
 * ndr_resolution (spec 2, Graph flows): FetchOrderData → AnalyzeNDR → DecideAction → optional
 * ApproveAction → ExecuteAction; outcomes REATTEMPT, RTO, CONTACT, ESCALATE. A human approves when
 * the order's value exceeds 5000 currency units or the model's confidence is below 70%.
 * REATTEMPT and RTO resolve the order's open NDR case in orders (reattempt / return_to_origin);
 * CONTACT and ESCALATE change nothing in orders and are the run's answer for the team. A reviewer's
 * `reject` sends the case back to AnalyzeNDR with the reviewer's notes (README "Graph flows").
 */
import Decimal from 'decimal.js';
import { aiErrors } from '../../errors';
import type { Flow, Json } from '../engine';
import { askJson, callTool, fraction, oneOf } from './common';

const ACTIONS = ['REATTEMPT', 'RTO', 'CONTACT', 'ESCALATE'] as const;
type Action = (typeof ACTIONS)[number];

export const APPROVAL_VALUE = new Decimal(5000);
export const APPROVAL_CONFIDENCE = 70;

type Order = { id: string; order_number: string; total: string; currency: string; status: string };
type NdrCase = { id: string; order_id: string; attempt_number: number; reason: string | null };

export const ndrResolution: Flow = {
  type: 'ndr_resolution',
  inputSchema: {
    type: 'object',
    required: ['order_id', 'ndr_reason'],
    properties: {
      order_id: { type: 'string', minLength: 1, maxLength: 100 },
      ndr_reason: { type: 'string', minLength: 1, maxLength: 1000 },
      delivery_attempts: { type: 'integer', minimum: 0, maximum: 100 },
      customer_phone: { type: 'string', maxLength: 40 },
    },
  },
  start: 'FetchOrderData',
  nodes: {
    FetchOrderData: {
      kind: 'tool',
      async run(ctx, run) {
        const order = await callTool<Order>(ctx, run, 'orders.get', { id: run.input.order_id });
        const { cases } = await callTool<{ cases: NdrCase[] }>(ctx, run, 'orders.list_ndr_cases', { open: true, limit: 200 });
        const open = cases.filter((c) => c.order_id === order.id).sort((a, b) => b.attempt_number - a.attempt_number)[0];
        return {
          output: { order_id: order.id, order_number: order.order_number, total: order.total, currency: order.currency, status: order.status, ndr_case_id: open?.id ?? null },
          next: 'AnalyzeNDR',
        };
      },
    },
    AnalyzeNDR: {
      kind: 'agent',
      async run(ctx, run) {
        const { answer, usage } = await askJson(
          ctx,
          'You resolve failed deliveries (NDR) of an Indian e-commerce seller. Choose one action: REATTEMPT (deliver again), RTO (return to origin), CONTACT (call the customer first) or ESCALATE (a person must look). Answer {"action", "confidence" (0-100), "reasoning"}.',
          { order: run.state.FetchOrderData, ndr_reason: run.input.ndr_reason, delivery_attempts: run.input.delivery_attempts ?? null, reviewer_notes: (run.state.ApproveAction?.notes as string | undefined) ?? null },
        );
        const confidence = Math.round(fraction(answer.confidence) * 100);
        if (!Number.isFinite(confidence)) throw aiErrors.badAnswer('The model gave no numeric confidence.');
        return { output: { action: oneOf(answer.action, ACTIONS, 'the NDR action'), confidence, reasoning: String(answer.reasoning ?? '') }, next: 'DecideAction', usage };
      },
    },
    DecideAction: {
      kind: 'logic',
      async run(_ctx, run) {
        const analysis = run.state.AnalyzeNDR!;
        const reasons: string[] = [];
        if (new Decimal(run.state.FetchOrderData!.total as string).gt(APPROVAL_VALUE)) reasons.push(`order value above ${APPROVAL_VALUE.toFixed()}`);
        if ((analysis.confidence as number) < APPROVAL_CONFIDENCE) reasons.push(`confidence below ${APPROVAL_CONFIDENCE}%`);
        return { output: { proposed_action: analysis.action, requires_approval: reasons.length > 0, reasons }, next: reasons.length > 0 ? 'ApproveAction' : 'ExecuteAction' };
      },
    },
    ApproveAction: {
      kind: 'human',
      schema: {
        type: 'object',
        required: ['decision'],
        additionalProperties: false,
        properties: {
          decision: { type: 'string', enum: ['approve', 'reject', 'override'] },
          override_action: { type: 'string', enum: [...ACTIONS] },
          notes: { type: 'string', maxLength: 2000 },
        },
      },
      prompt(run) {
        const d = run.state.DecideAction!;
        const a = run.state.AnalyzeNDR!;
        const o = run.state.FetchOrderData!;
        return `Order ${o.order_number} (${o.currency} ${o.total}) failed delivery: ${run.input.ndr_reason as string}. Proposed action: ${a.action as string} (confidence ${a.confidence as number}%): ${a.reasoning as string}. Approval needed: ${(d.reasons as string[]).join('; ')}. Approve, reject (analyse again with your notes) or override with another action.`;
      },
      check: (input) => (input.decision === 'override' && input.override_action === undefined ? { 'human_input.override_action': ['is required when decision is override'] } : null),
      next: (input) => (input.decision === 'reject' ? 'AnalyzeNDR' : 'ExecuteAction'),
    },
    ExecuteAction: {
      kind: 'tool',
      acts: true,
      async run(ctx, run) {
        const approval = run.state.ApproveAction;
        const action = (approval?.decision === 'override' ? approval.override_action : run.state.AnalyzeNDR!.action) as Action;
        const caseId = run.state.FetchOrderData!.ndr_case_id as string | null;
        let ndrCase: Json | null = null;
        if (action === 'REATTEMPT' || action === 'RTO') {
          if (!caseId) throw aiErrors.ndrCaseNotFound(run.state.FetchOrderData!.order_number as string, action);
          ndrCase = await callTool<Json>(ctx, run, 'orders.resolve_ndr_case', { case_id: caseId, action: action === 'RTO' ? 'return_to_origin' : 'reattempt' });
        }
        return { output: { action, executed: ndrCase !== null, ndr_case: ndrCase }, next: null };
      },
    },
  },
  finalOutput(run) {
    const executed = run.state.ExecuteAction!;
    return {
      outcome: executed.action,
      order_id: run.state.FetchOrderData!.order_id,
      ndr_case_id: run.state.FetchOrderData!.ndr_case_id,
      approved_by: run.state.ApproveAction ? 'human' : 'auto',
      confidence: run.state.AnalyzeNDR!.confidence,
      reasoning: run.state.AnalyzeNDR!.reasoning,
      executed: executed.executed,
    };
  },
};
