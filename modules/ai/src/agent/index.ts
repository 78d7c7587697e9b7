/**
 * The agent area (spec 2, AI: Agent role, Tools, Endpoints Agent): roles, tool discovery, the
 * tool-calling loop, /ai/agent/chat and /chat/stream. Tools are listed and run through the
 * platform's tools.list and tools.call, as the requesting user. It reaches language models only
 * through ../llm (chat, chatStream).
 */
import type { Area } from '../area';
import { agentModels } from './models';
import { agentOperations } from './operations';

export const agentArea: Area = { operations: agentOperations, models: agentModels, consumes: ['tools.list', 'tools.call'] };
