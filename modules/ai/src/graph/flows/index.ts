/** The graph flows of spec 2, by flow_type. */
import type { Flow } from '../engine';
import { fraudReview } from './fraud-review';
import { ndrResolution } from './ndr-resolution';
import { refundApproval } from './refund-approval';

export const FLOWS: Record<string, Flow> = Object.fromEntries([ndrResolution, fraudReview, refundApproval].map((f) => [f.type, f]));
export const FLOW_TYPES = Object.keys(FLOWS) as Array<'ndr_resolution' | 'fraud_review' | 'refund_approval'>;
