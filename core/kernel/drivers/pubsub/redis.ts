/**
 * Pub/sub across every node (REDIS_URL set). Two connections: a Redis connection in subscriber mode
 * can run no other command, so publishing goes through the shared command connection and this
 * driver owns a second one that only subscribes.
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import { escapeGlob, toRedisPattern } from '../glob';
import { closeRedisClient } from '../redis-connection';
import { deliver } from './deliver';
import type { MessageHandler, PubSub, Unsubscribe } from './types';

interface Topic {
  handlers: Set<MessageHandler>;
  /** Settles when Redis confirmed the (p)subscribe. */
  ready: Promise<unknown>;
}

export class RedisPubSub implements PubSub {
  /** Keyed by the Redis channel name, or by the Redis pattern for `*` subscriptions. */
  private readonly channels = new Map<string, Topic>();
  private readonly patterns = new Map<string, Topic>();

  /** channelPrefix namespaces the channels (e.g. `mandi:ps:`) so deployments sharing a Redis do not mix. */
  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly channelPrefix: string,
    private readonly logger: Logger,
  ) {
    subscriber.on('message', (channel: string, text: string) => this.dispatch(this.channels.get(channel), channel, text));
    subscriber.on('pmessage', (pattern: string, channel: string, text: string) => this.dispatch(this.patterns.get(pattern), channel, text));
  }

  async publish(channel: string, message: unknown): Promise<void> {
    await this.publisher.publish(this.channelPrefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe> {
    const isPattern = channel.includes('*');
    const topics = isPattern ? this.patterns : this.channels;
    const name = isPattern ? escapeGlob(this.channelPrefix) + toRedisPattern(channel) : this.channelPrefix + channel;
    let topic = topics.get(name);
    if (!topic) {
      topic = { handlers: new Set(), ready: isPattern ? this.subscriber.psubscribe(name) : this.subscriber.subscribe(name) };
      topics.set(name, topic);
    }
    topic.handlers.add(handler);
    try {
      await topic.ready;
    } catch (err) {
      topic.handlers.delete(handler);
      if (topic.handlers.size === 0 && topics.get(name) === topic) topics.delete(name);
      throw err;
    }
    return async () => {
      const current = topics.get(name);
      if (!current || !current.handlers.delete(handler) || current.handlers.size > 0) return;
      topics.delete(name);
      await (isPattern ? this.subscriber.punsubscribe(name) : this.subscriber.unsubscribe(name));
    };
  }

  async close(): Promise<void> {
    this.channels.clear();
    this.patterns.clear();
    await closeRedisClient(this.subscriber);
  }

  private dispatch(topic: Topic | undefined, channel: string, text: string): void {
    if (!topic) return;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.logger.warn({ channel }, 'pub/sub message is not JSON; dropped');
      return;
    }
    const local = channel.slice(this.channelPrefix.length);
    for (const handler of topic.handlers) void deliver(handler, message, local, this.logger);
  }
}
