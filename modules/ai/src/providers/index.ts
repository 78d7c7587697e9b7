/** The providers area: language-model and speech providers, presets, credentials, config, usage. */
import type { Area } from '../area';
import { providerModels } from './models';
import { providerOperations } from './operations';

export const providersArea: Area = {
  operations: providerOperations,
  models: providerModels,
  secrets: [
    { name: 'llm_api_keys', description: 'API keys of the language-model providers, by provider id (set with PUT /ai/providers/{id}/credentials).' },
    { name: 'stt_api_keys', description: 'API keys of the speech-to-text providers, by provider id (PUT /ai/stt/providers/{id}/credentials).' },
    { name: 'tts_api_keys', description: 'API keys of the text-to-speech providers, by provider id (PUT /ai/tts/providers/{id}/credentials).' },
  ],
};
