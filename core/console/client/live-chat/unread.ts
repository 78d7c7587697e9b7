/**
 * Unread counts per conversation, computed here: the live chat API has no per-agent unread field
 * (a message's `is_read` is set for everyone as soon as any agent reads the conversation, so it cannot
 * say what this agent has not seen). The count is the visitor messages that arrived on the socket
 * since this agent last opened the conversation; it is kept in localStorage per tenant and user, so it
 * survives a reload. Messages that arrived while no console was open are not counted one by one: a
 * conversation whose last message is newer than the agent's last look is marked "new" instead (reading
 * its messages to count them would mark them read).
 */
interface Seen {
  /** The time of the latest message the agent saw in it (ISO, the platform's clock). */
  at: string;
  /** Visitor messages since then. */
  count: number;
}

type Book = Record<string, Seen>;

const keyOf = (tenant: string, user: number) => `mandi.console.inbox.${tenant}.${user}`;

export class UnreadBook {
  private book: Book;

  constructor(private readonly key: string) {
    try {
      this.book = JSON.parse(localStorage.getItem(key) ?? '{}') as Book;
    } catch {
      this.book = {};
    }
  }

  static of(tenant: string, user: number): UnreadBook {
    return new UnreadBook(keyOf(tenant, user));
  }

  /** The agent has the conversation in front of them, its latest message sent at `at`: nothing in it is unread. */
  opened(id: number, at: string): void {
    this.book[id] = { at, count: 0 };
    this.save();
  }

  /** A visitor wrote in a conversation the agent is not looking at. */
  arrived(id: number): void {
    const seen = this.book[id] ?? { at: new Date(0).toISOString(), count: 0 };
    this.book[id] = { ...seen, count: seen.count + 1 };
    this.save();
  }

  /** The count, or "new" for activity since the last look that was not counted. */
  of(id: number, lastMessageAt: string | null): number | 'new' {
    const seen = this.book[id];
    if (seen?.count) return seen.count;
    if (!lastMessageAt) return 0;
    return !seen || lastMessageAt > seen.at ? 'new' : 0;
  }

  private save(): void {
    try {
      localStorage.setItem(this.key, JSON.stringify(this.book));
    } catch {
      /* storage full or refused: counts stay for this page only */
    }
  }
}
