/**
 * Module versions that crashed their isolate beyond recovery (sandbox ISOLATE_CRASHED: the node that
 * ran it drains and restarts) are refused on every node for a cool-down, so one module cannot take
 * node after node down. Each entry is a row of the central database, which every node shares and
 * which outlives the restart the crash causes (also with in-process drivers), and is announced over
 * pub/sub so the other nodes refuse at once. Calls check this node's copy, never the database.
 */
import { Op } from 'sequelize';
import type { Clock } from '../clock';
import type { CentralDb } from '../data/central-db';
import type { PubSub } from '../drivers';
import { MandiError } from '../errors';
import { moduleErrors } from './errors';
import type { Logger } from '../logger';

export interface QuarantineEntry {
  /** The module version, `alias@version`. */
  module: string;
  reason: string;
  since: string;
  until: string;
}

type Announcement = { lifted: string } | { entry: QuarantineEntry };

const CHANNEL = 'mandi:modules:quarantine';
const ROW_PREFIX = 'module_quarantine:';

export class ModuleQuarantine {
  private readonly entries = new Map<string, QuarantineEntry>();

  constructor(
    private readonly deps: { central: CentralDb; pubsub: PubSub; clock: Clock; cooldownSeconds: number; logger: Logger },
  ) {}

  /** Subscribes first, then loads, so nothing announced meanwhile is missed. */
  async start(): Promise<void> {
    await this.deps.pubsub.subscribe(CHANNEL, (message) => this.apply(message as Announcement));
    await this.list();
  }

  /** The error a call into this module version gets while it is quarantined, else undefined. */
  refusal(moduleKey: string): MandiError | undefined {
    const entry = this.entries.get(moduleKey);
    if (!entry) return undefined;
    if (Date.parse(entry.until) <= this.deps.clock.now()) {
      this.entries.delete(moduleKey);
      return undefined;
    }
    return moduleErrors.quarantined(moduleKey, entry.until, entry.reason, { ...entry });
  }

  async add(moduleKey: string, reason: string): Promise<QuarantineEntry> {
    const now = this.deps.clock.now();
    const entry = { module: moduleKey, reason, since: new Date(now).toISOString(), until: new Date(now + this.deps.cooldownSeconds * 1000).toISOString() };
    this.entries.set(moduleKey, entry);
    await this.deps.central.models.PlatformSetting.upsert({ key: ROW_PREFIX + moduleKey, value: entry });
    await this.deps.pubsub.publish(CHANNEL, { entry } satisfies Announcement);
    this.deps.logger.warn({ module: moduleKey, until: entry.until, reason }, 'module quarantined');
    return entry;
  }

  /** Ends a quarantine early; false when the module was not quarantined. */
  async lift(moduleKey: string): Promise<boolean> {
    const removed = await this.deps.central.models.PlatformSetting.destroy({ where: { key: ROW_PREFIX + moduleKey } });
    this.entries.delete(moduleKey);
    await this.deps.pubsub.publish(CHANNEL, { lifted: moduleKey } satisfies Announcement);
    return removed > 0;
  }

  /** The quarantines in force, from the database (this node's copy is refreshed from it). */
  async list(): Promise<QuarantineEntry[]> {
    const rows = await this.deps.central.models.PlatformSetting.findAll({ where: { key: { [Op.startsWith]: ROW_PREFIX } } });
    const now = this.deps.clock.now();
    const live = rows.map((r) => r.value as QuarantineEntry).filter((e) => Date.parse(e.until) > now);
    this.entries.clear();
    for (const e of live) this.entries.set(e.module, e);
    return live.sort((a, b) => a.since.localeCompare(b.since));
  }

  private apply(message: Announcement): void {
    if ('lifted' in message) this.entries.delete(message.lifted);
    else this.entries.set(message.entry.module, message.entry);
  }
}
