/**
 * refund_approval (spec 2, Graph flows): LoadRefundContext → EvaluateRefund → RefundDecision →
 * optional ApproveRefund → ProcessRefund; outcomes APPROVE, PARTIAL, DENY. A refund of at most 500
 * with an approved return processes by itself; any other asks a reviewer. "Approved return" is
 * `input_data.return_status === "approved"` until a returns resource exists. APPROVE refunds
 * refund_amount and PARTIAL the reviewer's amount through orders.refund, on a completed payment of
 * the order with that much left to refund; DENY refunds nothing. Amounts are decimal strings.
 */
import Decimal from 'decimal.js';
import { aiErrors } from '../../errors';
import type { Flow, Json } from '../engine';
import { askJson, callTool, oneOf } from './common';

const OUTCOMES = ['APPROVE', 'PARTIAL', 'DENY'] as const;
type Outcome = (typeof OUTCOMES)[number];

export const AUTO_REFUND_LIMIT = new Decimal(500);
const AMOUNT = '^\\d{1,10}(\\.\\d{1,2})?$';

type Payment = { id: string; status: string; amount: string; refunded_amount: string; method: string };
type Payments = { order: { id: string; order_number: string; total: string; total_paid: string; total_refunded: string; currency: string; status: string }; payments: Payment[] };

const amountOf = (v: unknown) => new Decimal(typeof v === 'number' ? v.toFixed(2) : String(v));
const refundable = (p: Payment) => new Decimal(p.amount).minus(p.refunded_amount);

export const refundApproval: Flow = {
  type: 'refund_approval',
  inputSchema: {
    type: 'object',
    required: ['order_id', 'refund_amount', 'reason'],
    properties: {
      order_id: { type: 'string', minLength: 1, maxLength: 100 },
      refund_amount: { type: ['string', 'number'], pattern: AMOUNT, minimum: 0.01, description: 'decimal, e.g. "450.00"' },
      reason: { type: 'string', minLength: 1, maxLength: 500 },
      return_id: { type: ['string', 'null'], maxLength: 100 },
      return_status: { type: 'string', maxLength: 40, description: '"approved" for an approved return' },
    },
  },
  start: 'LoadRefundContext',
  nodes: {
    LoadRefundContext: {
      kind: 'tool',
      async run(ctx, run) {
        const { order, payments } = await callTool<Payments>(ctx, run, 'orders.list_payments', { id: run.input.order_id });
        const completed = payments.filter((p) => p.status === 'completed');
        const left = completed.reduce((sum, p) => sum.plus(refundable(p)), new Decimal(0));
        return {
          output: {
            order_id: order.id, order_number: order.order_number, order_status: order.status, total: order.total, total_paid: order.total_paid,
            total_refunded: order.total_refunded, currency: order.currency, refundable: left.toFixed(2), return_approved: run.input.return_status === 'approved',
          },
          next: 'EvaluateRefund',
        };
      },
    },
    EvaluateRefund: {
      kind: 'agent',
      async run(ctx, run) {
        const { answer, usage } = await askJson(
          ctx,
          'You review refund requests of an e-commerce seller. Recommend APPROVE (the amount asked), PARTIAL (a smaller amount) or DENY. Answer {"recommendation", "amount" (decimal string, for PARTIAL), "reasoning"}.',
          { order: run.state.LoadRefundContext, refund_amount: amountOf(run.input.refund_amount).toFixed(2), reason: run.input.reason, return_id: run.input.return_id ?? null },
        );
        return { output: { recommendation: oneOf(answer.recommendation, OUTCOMES, 'the refund recommendation'), amount: answer.amount ?? null, reasoning: String(answer.reasoning ?? '') }, next: 'RefundDecision', usage };
      },
    },
    RefundDecision: {
      kind: 'logic',
      async run(_ctx, run) {
        const amount = amountOf(run.input.refund_amount);
        const auto = amount.lte(AUTO_REFUND_LIMIT) && run.input.return_status === 'approved';
        return { output: { amount: amount.toFixed(2), auto_process: auto, decision: auto ? 'APPROVE' : null }, next: auto ? 'ProcessRefund' : 'ApproveRefund' };
      },
    },
    ApproveRefund: {
      kind: 'human',
      schema: {
        type: 'object',
        required: ['decision'],
        additionalProperties: false,
        properties: {
          decision: { type: 'string', enum: [...OUTCOMES] },
          amount: { type: 'string', pattern: AMOUNT, description: 'the amount to refund, required for PARTIAL' },
          notes: { type: 'string', maxLength: 2000 },
        },
      },
      prompt(run) {
        const c = run.state.LoadRefundContext!;
        const e = run.state.EvaluateRefund!;
        return `Refund of ${c.currency as string} ${run.state.RefundDecision!.amount as string} on order ${c.order_number as string} (${run.input.reason as string}); return ${c.return_approved ? 'approved' : 'not approved'}. The model recommends ${e.recommendation as string}: ${e.reasoning as string}. Decide APPROVE, PARTIAL (with amount) or DENY.`;
      },
      check(input, run) {
        if (input.decision !== 'PARTIAL') return null;
        if (input.amount === undefined) return { 'human_input.amount': ['is required when decision is PARTIAL'] };
        const asked = amountOf(run.input.refund_amount);
        const amount = new Decimal(input.amount as string);
        return amount.gt(0) && amount.lt(asked) ? null : { 'human_input.amount': [`must be more than 0 and less than the ${asked.toFixed(2)} asked`] };
      },
      next: () => 'ProcessRefund',
    },
    ProcessRefund: {
      kind: 'tool',
      acts: true,
      async run(ctx, run) {
        const review = run.state.ApproveRefund;
        const decision = (review?.decision ?? run.state.RefundDecision!.decision) as Outcome;
        if (decision === 'DENY') return { output: { decision, refund: null }, next: null };
        const amount = decision === 'PARTIAL' ? new Decimal(review!.amount as string) : amountOf(run.input.refund_amount);
        const { payments } = await callTool<Payments>(ctx, run, 'orders.list_payments', { id: run.input.order_id });
        const payment = payments.find((p) => p.status === 'completed' && refundable(p).gte(amount));
        if (!payment) throw aiErrors.refundNotPossible(amount.toFixed(2));
        const refund = await callTool<Json>(ctx, run, 'orders.refund', { id: run.input.order_id, payment_id: payment.id, amount: amount.toFixed(2), reason: String(run.input.reason) });
        return { output: { decision, refund: { id: refund.id, amount: refund.amount, status: refund.status, payment_id: payment.id } }, next: null };
      },
    },
  },
  finalOutput(run) {
    const processed = run.state.ProcessRefund!;
    return {
      outcome: processed.decision,
      order_id: run.state.LoadRefundContext!.order_id,
      approved_by: run.state.ApproveRefund ? 'human' : 'auto',
      refund: processed.refund,
      recommendation: run.state.EvaluateRefund!.recommendation,
    };
  },
};
