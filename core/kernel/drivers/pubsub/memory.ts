/** In-process pub/sub (REDIS_URL unset). Delivery is asynchronous and carries a JSON copy, as Redis would. */
import type { Logger } from '../../logger';
import { globToRegExp } from '../glob';
import { deliver } from './deliver';
import type { MessageHandler, PubSub, Unsubscribe } from './types';

interface Subscription {
  matches: (channel: string) => boolean;
  handler: MessageHandler;
}

export class MemoryPubSub implements PubSub {
  private readonly subscriptions = new Set<Subscription>();

  constructor(private readonly logger: Logger) {}

  async publish(channel: string, message: unknown): Promise<void> {
    const text = JSON.stringify(message);
    for (const sub of this.subscriptions) {
      if (!sub.matches(channel)) continue;
      setImmediate(() => {
        if (this.subscriptions.has(sub)) void deliver(sub.handler, JSON.parse(text), channel, this.logger);
      });
    }
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    const pattern = channel.includes('*') ? globToRegExp(channel) : undefined;
    const sub: Subscription = { matches: pattern ? (c) => pattern.test(c) : (c) => c === channel, handler };
    this.subscriptions.add(sub);
    return async () => void this.subscriptions.delete(sub);
  }

  async close(): Promise<void> {
    this.subscriptions.clear();
  }
}
