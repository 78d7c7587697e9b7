import type { Logger } from '../../logger';
import type { MessageHandler } from './types';

/** A failing handler is logged and does not affect the other subscribers. */
export async function deliver(handler: MessageHandler, message: unknown, channel: string, logger: Logger): Promise<void> {
  try {
    await handler(message, channel);
  } catch (err) {
    logger.error({ err, channel }, 'pub/sub handler failed');
  }
}
