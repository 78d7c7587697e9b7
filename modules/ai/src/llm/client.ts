import type { HandlerContext } from '../../../../sdk';
import type { ChatRequest, ChatResult, ChatStreamEvent } from './types';

export async function complete(_ctx: HandlerContext, _request: ChatRequest, _onEvent: ((event: ChatStreamEvent) => Promise<void>) | null): Promise<ChatResult> {
  throw new Error('not yet');
}
