/**
 * spec 2, Authentication 3: `ai.view` for chat, stream, roles list, tools list and translation
 * reads; `ai.configure` for role changes, graph run, translation config update — and (the spec is
 * silent) for every provider, credential, preset-based setup and config endpoint.
 */
import type { Permission } from '../../../sdk';

export const VIEW = 'ai.view';
export const CONFIGURE = 'ai.configure';

export const permissions: Permission[] = [
  { name: VIEW, description: 'Use the AI features: agent chat and its stream, roles and tools lists, translation, speech, provider and settings reads.' },
  { name: CONFIGURE, description: 'Configure AI: providers and their credentials, default and fallback, speech and translation settings, agent roles, graph runs.' },
];
