/**
 * The order of a bull queue's shared wait list, so that every node takes tenants' jobs in turn (DESIGN,
 * wave 3: scheduling tenants fairly). Start-time fair queueing: a grouped job is added with a bull
 * priority, its tag, one after the later of its group's last tag and the highest tag started on any
 * node so far (the floor). A group's burst thus spreads out over tags floor+1, floor+2, ... and a job
 * another group adds meanwhile gets floor+1 and goes ahead of the rest of the burst. bull keeps the
 * wait list sorted by priority (also when delayed and retried jobs come due), so the order holds across
 * nodes and no job is moved, copied or taken out of bull's hands: none is lost or run twice by it.
 * A tag is given when the job is added: a delayed job keeps the place it got then.
 */
/** What is used of the queue's Redis connection. */
interface Eval {
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
}

const NEXT_TAG = `
local floor = tonumber(redis.call('GET', KEYS[2]) or '0')
local last = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local tag = math.max(floor, last) + 1
redis.call('HSET', KEYS[1], ARGV[1], tag)
return tag`;

const ADVANCE_FLOOR = `
if tonumber(ARGV[1]) > tonumber(redis.call('GET', KEYS[1]) or '0') then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

export class FairOrder {
  /** `keyPrefix`: the queue's keys, `<prefix>:<queue>`. */
  constructor(private readonly redis: Eval, private readonly keyPrefix: string) {}

  /** The tag (bull priority, 1 or more) of a job `group` adds now. */
  async nextTag(group: string): Promise<number> {
    return Number(await this.redis.eval(NEXT_TAG, 2, `${this.keyPrefix}:fair-tags`, `${this.keyPrefix}:fair-floor`, group));
  }

  /** A job of tag `tag` starts: later groups' first jobs line up after it. */
  async started(tag: number): Promise<void> {
    await this.redis.eval(ADVANCE_FLOOR, 1, `${this.keyPrefix}:fair-floor`, String(tag));
  }
}
