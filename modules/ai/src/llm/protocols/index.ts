import type { LlmType } from '../../providers/presets';
import type { Protocol } from './types';
import { vendora } from './vendora';
import { vendorb } from './vendorb';

export function protocolOf(type: LlmType): Protocol {
  return type === 'vendorb' ? vendorb : vendora;
}
