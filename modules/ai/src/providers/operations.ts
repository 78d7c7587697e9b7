import { embedOperations } from './embed-operations';
import { llmProviderOperations } from './llm-operations';
import { usageOperations } from './usage-operations';

export const providerOperations = { ...llmProviderOperations, ...usageOperations, ...embedOperations };
