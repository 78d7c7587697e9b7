import { operation, Type } from '../../../../sdk';
import { VIEW } from '../permissions';
import { LLM_PRESETS } from './presets';

const LlmPresetSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.Union([Type.Literal('vendora_compatible'), Type.Literal('vendorb')]),
  base_url: Type.String(),
  models: Type.Array(Type.String()),
});

export const providerOperations = {
  list_presets: operation({
    description: 'The language-model presets (spec 2, AI configuration): ten vendors, each with its type, base URL and models.',
    permission: VIEW,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(LlmPresetSchema) }),
    http: { method: 'GET', path: '/ai/presets', permission: VIEW },
    handler: () => ({ data: LLM_PRESETS }),
  }),
};
