/**
 * ai: the AI features of spec 2 as a first-party sandboxed module. Vendors are reached only through
 * host.fetch (origins added for the tenant when an admin configures a provider) with API keys in
 * the module's secrets (write-only; responses carry hints only). Each area declares its own
 * operations and models; this file assembles them:
 *   providers   language-model, speech-to-text and text-to-speech providers, presets, config, usage
 *   speech      text-to-speech synthesis (JSON and streamed), voices, speech-to-text transcription
 *   translate   translate, batch, detect, languages, config
 *   agent       roles, tools, chat (owned by the agent work, see src/agent/index.ts)
 *   graph       graph flows (owned by the agent work, see src/graph/index.ts)
 *   voice       the voice assistant: speech-to-text → the agent → text-to-speech in one request
 *   assist      order extraction, suggested replies, product descriptions (src/assist/index.ts)
 * Language models are called through src/llm (chat, chatStream) only.
 */
import { defineModule } from '../../../sdk';
import { agentArea } from './agent';
import { assistArea } from './assist';
import { mergeAreas } from './area';
import { graphArea } from './graph';
import { permissions } from './permissions';
import { providersArea } from './providers';
import { speechArea } from './speech';
import { translateArea } from './translate';
import { voiceArea } from './voice';

const merged = mergeAreas([providersArea, speechArea, translateArea, agentArea, graphArea, voiceArea, assistArea]);

export default defineModule({
  name: 'ai',
  version: '1.0.0',
  description:
    'AI features (spec 2): language-model, speech-to-text and text-to-speech providers with default and fallback, usage tracking, speech synthesis and transcription, translation, agent chat with role-scoped tools, graph flows with human approval, order extraction, suggested replies, product descriptions, embeddings.',
  compatibility: { platform: '^2.0.0' },
  main: 'dist/index.js',
  operations: merged.operations,
  ...(merged.consumes.length > 0 ? { consumes: merged.consumes } : {}),
  permissions: [...permissions, ...merged.permissions],
  ...(merged.secrets.length > 0 ? { secrets: merged.secrets } : {}),
  ...(Object.keys(merged.jobs).length > 0 ? { jobs: merged.jobs } : {}),
  ...(Object.keys(merged.subscribes).length > 0 ? { events: { subscribes: merged.subscribes } } : {}),
  data: { models: merged.models },
  // A call may try two vendors, each given at most 25 s (llm timeout_ms, SPEECH_TIMEOUT_MS).
  limits: { memory_mb: 128, timeout_ms: 60000 },
});
