/**
 * Which installed module owns a realtime channel in a tenant (manifest `realtime.channels`; spec 2,
 * Events). Installs refuse overlapping patterns (sdk/manifest/compatibility.ts), so at most one
 * module of a tenant owns a channel; a channel no installed module declares is unknown and refused.
 */
import { channelMatches, type RealtimeChannel } from '../../../sdk/manifest';
import type { ModuleHost } from '../modules/module-host';

export interface ChannelOwner {
  module: string;
  declared: RealtimeChannel;
}

export class ModuleChannels {
  constructor(private readonly modules: Pick<ModuleHost, 'modulesFor'>) {}

  /** The installed module whose pattern matches channel in the tenant, if any. */
  async owner(tenantId: string, channel: string): Promise<ChannelOwner | undefined> {
    for (const mod of (await this.modules.modulesFor(tenantId)).list) {
      const declared = ownPattern(mod.manifest.realtime?.channels, channel);
      if (declared) return { module: mod.alias, declared };
    }
    return undefined;
  }

  /** The declaration of module (installed in the tenant) that matches channel, if it declares one. */
  async declaredBy(tenantId: string, module: string, channel: string): Promise<RealtimeChannel | undefined> {
    const mod = (await this.modules.modulesFor(tenantId)).byAlias.get(module);
    return ownPattern(mod?.manifest.realtime?.channels, channel);
  }
}

const ownPattern = (channels: readonly RealtimeChannel[] | undefined, channel: string) => channels?.find((c) => channelMatches(c.pattern, channel));
