/**
 * Publish/subscribe of JSON messages between the parts of one node (in-process) or across every node
 * (Redis). Fire-and-forget: a message reaches the subscribers present when it is published, once.
 * Work that must not be lost goes through the job queue instead.
 */

export type MessageHandler = (message: unknown, channel: string) => void | Promise<void>;

export type Unsubscribe = () => Promise<void>;

export interface PubSub {
  publish(channel: string, message: unknown): Promise<void>;
  /**
   * `*` in channel matches any run of characters (`tenant.*.events`); nothing else is special.
   * Resolves once the subscription is active, so a message published afterwards is received.
   */
  subscribe(channel: string, handler: MessageHandler): Promise<Unsubscribe>;
  close(): Promise<void>;
}
