/**
 * The agent area (spec 2, AI: Agent role, Tools, Endpoints Agent): roles, tool discovery, the
 * tool-calling loop, /ai/agent/chat and /chat/stream. Owned by the agent work (branch
 * i19/ai-agent): this folder and its tests are filled there; it is empty here so the module
 * assembles. It reaches language models only through ../llm (chat, chatStream).
 */
import type { Area } from '../area';

export const agentArea: Area = { operations: {} };
