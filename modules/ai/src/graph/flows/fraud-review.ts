/**
 * fraud_review (spec 2, Graph flows): AssessOrder → ScoreFraudRisk → FraudDecision → optional
 * ReviewFraud → TakeAction; outcomes APPROVE, HOLD, CANCEL. Risk below 0.3 approves by itself;
 * 0.3 to 0.7 (inclusive) asks a reviewer; above 0.7 holds the order and asks a reviewer.
 * In orders: APPROVE confirms a pending order, CANCEL cancels it, HOLD leaves it as it is (orders
 * has no held status: the run's outcome is the hold, README "Graph flows").
 */
import { aiErrors } from '../../errors';
import type { Flow, Json } from '../engine';
import { askJson, callTool, fraction } from './common';

const OUTCOMES = ['APPROVE', 'HOLD', 'CANCEL'] as const;
type Outcome = (typeof OUTCOMES)[number];

export const LOW_RISK = 0.3;
export const HIGH_RISK = 0.7;

type Order = {
  id: string; order_number: string; status: string; payment_status: string; is_cod: boolean; total: string; currency: string; customer_name: string | null;
  shipping_address: unknown; items: unknown[]; created_at: string;
};

export const fraudReview: Flow = {
  type: 'fraud_review',
  inputSchema: { type: 'object', required: ['order_id'], properties: { order_id: { type: 'string', minLength: 1, maxLength: 100 } } },
  start: 'AssessOrder',
  nodes: {
    AssessOrder: {
      kind: 'tool',
      async run(ctx, run) {
        const o = await callTool<Order>(ctx, run, 'orders.get', { id: run.input.order_id });
        return {
          output: {
            order_id: o.id, order_number: o.order_number, status: o.status, payment_status: o.payment_status, is_cod: o.is_cod, total: o.total, currency: o.currency,
            customer_name: o.customer_name, shipping_address: o.shipping_address, item_count: o.items.length, created_at: o.created_at,
          },
          next: 'ScoreFraudRisk',
        };
      },
    },
    ScoreFraudRisk: {
      kind: 'agent',
      async run(ctx, run) {
        const { answer, usage } = await askJson(
          ctx,
          'You score the fraud risk of an e-commerce order from 0 (safe) to 1 (fraud). Answer {"risk_score", "signals": [string], "reasoning"}.',
          { order: run.state.AssessOrder },
        );
        const risk = fraction(answer.risk_score);
        if (!(risk >= 0 && risk <= 1)) throw aiErrors.badAnswer(`The model gave the risk score ${JSON.stringify(answer.risk_score)}; expected 0 to 1.`);
        const signals = Array.isArray(answer.signals) ? answer.signals.map(String) : [];
        return { output: { risk_score: risk, signals, reasoning: String(answer.reasoning ?? '') }, next: 'FraudDecision', usage };
      },
    },
    FraudDecision: {
      kind: 'logic',
      async run(_ctx, run) {
        const risk = run.state.ScoreFraudRisk!.risk_score as number;
        if (risk < LOW_RISK) return { output: { risk_band: 'low', auto_action: 'APPROVE', requires_review: false }, next: 'TakeAction' };
        if (risk <= HIGH_RISK) return { output: { risk_band: 'medium', auto_action: null, requires_review: true }, next: 'ReviewFraud' };
        return { output: { risk_band: 'high', auto_action: 'HOLD', requires_review: true }, next: 'ReviewFraud' };
      },
    },
    ReviewFraud: {
      kind: 'human',
      schema: {
        type: 'object',
        required: ['decision'],
        additionalProperties: false,
        properties: { decision: { type: 'string', enum: [...OUTCOMES] }, notes: { type: 'string', maxLength: 2000 } },
      },
      prompt(run) {
        const o = run.state.AssessOrder!;
        const s = run.state.ScoreFraudRisk!;
        const held = run.state.FraudDecision!.auto_action === 'HOLD' ? ' The order is on hold.' : '';
        return `Order ${o.order_number} (${o.currency} ${o.total}, ${o.is_cod ? 'COD' : 'prepaid'}) scored fraud risk ${s.risk_score as number}: ${(s.signals as string[]).join('; ') || s.reasoning}.${held} Decide APPROVE, HOLD or CANCEL.`;
      },
      next: () => 'TakeAction',
    },
    TakeAction: {
      kind: 'tool',
      acts: true,
      async run(ctx, run) {
        const decision = (run.state.ReviewFraud?.decision ?? run.state.FraudDecision!.auto_action) as Outcome;
        const id = run.state.AssessOrder!.order_id as string;
        let order: Json | null = null;
        if (decision === 'CANCEL') order = await callTool<Json>(ctx, run, 'orders.cancel', { id, reason: `Fraud review: ${(run.state.ReviewFraud?.notes as string | undefined) ?? 'cancelled by the reviewer'}`.slice(0, 500) });
        if (decision === 'APPROVE' && run.state.AssessOrder!.status === 'pending') order = await callTool<Json>(ctx, run, 'orders.update_status', { id, status: 'confirmed' });
        return { output: { decision, order_status: (order?.status as string | undefined) ?? (run.state.AssessOrder!.status as string) }, next: null };
      },
    },
  },
  finalOutput(run) {
    return {
      outcome: run.state.TakeAction!.decision,
      order_id: run.state.AssessOrder!.order_id,
      risk_score: run.state.ScoreFraudRisk!.risk_score,
      risk_band: run.state.FraudDecision!.risk_band,
      reviewed_by: run.state.ReviewFraud ? 'human' : 'auto',
      order_status: run.state.TakeAction!.order_status,
    };
  },
};
