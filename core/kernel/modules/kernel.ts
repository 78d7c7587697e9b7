/**
 * The module runtime assembled: sandbox, module data, module host, bus, events. The platform and
 * the SDK's test host build it the same way, so an author's tests exercise the real path.
 */
import { SandboxRuntime } from '../../../sandbox';
import { AuditWriter } from '../bus/audit-writer';
import { Bus } from '../bus/bus';
import { EventBus } from '../bus/events';
import { SandboxInvoker } from '../bus/sandbox-invoker';
import type { SandboxTimings } from '../bus/sandbox-timings';
import type { Clock } from '../clock';
import type { Config } from '../../config';
import type { CentralDb } from '../data/central-db';
import type { TenantDatabases } from '../data/tenant-databases';
import type { Drivers } from '../drivers';
import type { Logger } from '../logger';
import { ModuleDataService } from '../module-data';
import { registerViewOperations } from '../module-data/materialized-views';
import { PublicPrefixOwners } from './public-prefix-owners';
import { ModuleHost, type ModuleSource } from './module-host';
import { ModuleQuarantine } from './module-quarantine';
import { ProviderChoices } from './provider-choices';
import type { LoadedModule } from './loaded-module';
import { ModuleSources } from './module-sources';
import { registerPlatformOperations } from './platform-operations';
import { registerPublicTokenOperations } from './public-tokens';
import { registerRelatedOperations } from '../tenancy/related-operations';
import { ModuleScheduler } from './module-scheduler';
import type { AppKeys } from '../secrets/app-key';
import { ModuleSecrets } from '../secrets/module-secrets';
import { registerSecretOperations } from '../secrets/secret-operations';
import { registerFetchOriginOperations } from './fetch-origin-operations';
import { FetchAccessCache } from './fetch-access';
import { ModuleJobs } from './module-jobs';
import { ModuleJobStore } from './module-job-store';

export interface ModuleKernel {
  runtime: SandboxRuntime;
  /** Module versions refused on every node after crashing their isolate (module-quarantine.ts). */
  quarantine: ModuleQuarantine;
  moduleData: ModuleDataService;
  /** Development modules (`add`) in front of the registry. */
  source: ModuleSources;
  modules: ModuleHost;
  /** Each tenant's chosen implementation per provider contract (provider-choices.ts). */
  providers: ProviderChoices;
  bus: Bus;
  events: EventBus;
  audit: AuditWriter;
  scheduler: ModuleScheduler;
  /** Module secrets per tenant, encrypted under the platform key (core/kernel/secrets). */
  secrets: ModuleSecrets;
  /** Jobs modules enqueue for themselves (module-jobs.ts). */
  jobs: ModuleJobs;
  /** Time spent in sandboxed handlers, per handler (core/kernel/bus/sandbox-timings.ts). */
  sandboxTimings: SandboxTimings;
  /** A tenant's fetch origins or private-network grant changed: this node's copy goes, the others are told (./fetch-access.ts). */
  fetchGrantsChanged(tenantId: string): Promise<void>;
  close(): Promise<void>;
}

export async function createModuleKernel(deps: {
  config: Pick<Config, 'busRateLimit' | 'workflowStepRateLimit' | 'publicTokenLimit' | 'busValidateOutput' | 'eventDelivery' | 'moduleDbRoles' | 'sandboxMaxMemoryMb' | 'moduleQuarantineSeconds' | 'moduleJobs' | 'appUrl' | 'rootDomain'>;
  central: CentralDb;
  keys: AppKeys;
  tenantDbs: TenantDatabases;
  drivers: Drivers;
  logger: Logger;
  clock: Clock;
  /** The registry's packages, behind the development modules. */
  registry?: ModuleSource;
  /**
   * Development modules (MODULE_PATHS), registered before event delivery, schedules and jobs start:
   * a tenant's module set is cached on first use, and one made before they were known would lack them.
   */
  localModules?: readonly LoadedModule[];
  /** An isolate was lost beyond recovery (its memory is never freed): this process must be replaced. */
  onIsolateLost?: (moduleKey: string) => void;
}): Promise<ModuleKernel> {
  const { central, tenantDbs, drivers, clock } = deps;
  const logger = deps.logger.child({ part: 'modules' });
  // A development module claims its public prefix first of all: one whose prefix another alias owns stops the boot, saying which.
  const prefixes = new PublicPrefixOwners(central);
  for (const mod of deps.localModules ?? []) await prefixes.claim(mod.manifest);
  const quarantine = new ModuleQuarantine({ central, pubsub: drivers.pubsub, clock, cooldownSeconds: deps.config.moduleQuarantineSeconds, logger });
  await quarantine.start();
  const runtime = new SandboxRuntime({
    onCatastrophicError: (key, message) => {
      logger.fatal({ module: key, message }, 'isolate lost beyond recovery; quarantining the module and replacing this node');
      // Recorded before the node goes, so the restarted node and every other one refuse the module.
      quarantine
        .add(key, message)
        .catch((err: unknown) => logger.error({ err, module: key }, 'could not record the quarantine'))
        .finally(() => deps.onIsolateLost?.(key));
    },
  });
  // The root logger: the service binds its own `part`, and a second `part` key would repeat in each line.
  const moduleData = new ModuleDataService(tenantDbs, deps.logger, { roles: deps.config.moduleDbRoles });
  const source = new ModuleSources(deps.config.sandboxMaxMemoryMb, deps.registry);
  for (const mod of deps.localModules ?? []) source.add(mod);
  const modules = new ModuleHost({ central, tenantDbs, source, moduleData, pubsub: drivers.pubsub, logger, prefixes });
  await modules.start();
  const providers = new ProviderChoices({ central, pubsub: drivers.pubsub });
  await providers.start();
  const audit = new AuditWriter(central, logger);
  const events = new EventBus({ queue: drivers.queue, modules, logger, clock }, { ...deps.config.eventDelivery, concurrency: 8 });

  // What host.fetch may reach per tenant: narrowing at once everywhere, widening at once here and on
  // the other nodes when the announcement arrives (./fetch-access.ts).
  const fetchAccess = new FetchAccessCache({ central, pubsub: drivers.pubsub });
  await fetchAccess.start();
  const fetchGrantsChanged = (tenantId: string) => fetchAccess.changed(tenantId);

  const invoker = new SandboxInvoker({ runtime, moduleData, events, clock, logger, fetchAccess: (tenantId, alias) => fetchAccess.forModule(tenantId, alias), quarantine, maxMemoryMb: deps.config.sandboxMaxMemoryMb });
  const bus = new Bus({ modules, providers, invoker, rateLimiter: drivers.rateLimiter, audit, clock, logger, rateLimit: deps.config.busRateLimit, workflowStepRateLimit: deps.config.workflowStepRateLimit, validateOutput: deps.config.busValidateOutput });
  invoker.attach(bus);
  registerPlatformOperations(bus, central, { appUrl: deps.config.appUrl, rootDomain: deps.config.rootDomain });
  registerPublicTokenOperations(bus, { central, modules, limit: deps.config.publicTokenLimit });
  registerRelatedOperations(bus, { central, modules, audit, clock });
  registerViewOperations(bus, moduleData);
  const secrets = new ModuleSecrets({ central, keys: deps.keys, clock, logger });
  registerSecretOperations(bus, { store: secrets, modules });
  registerFetchOriginOperations(bus, { central, changed: fetchGrantsChanged });

  // Module subscribers run as the subscribing module, for the tenant the event happened in.
  events.start(async (alias, envelope) => {
    const mod = (await modules.modulesFor(envelope.tenantId)).byAlias.get(alias);
    if (!mod) return; // uninstalled since the event was queued: nothing to deliver to
    await invoker.invoke(mod, {
      kind: 'event',
      name: envelope.event,
      input: envelope.payload,
      caller: { kind: 'core', name: 'events' },
      // What a subscriber emits in turn was caused by the same workflow runs (core/services/workflows/run-chain.ts).
      ctx: { tenantId: envelope.tenantId, user: null, workflowChain: envelope.chain },
      event: { id: envelope.id, name: envelope.event, emitted_at: envelope.emittedAt },
    });
  });

  const scheduler = new ModuleScheduler({ queue: drivers.queue, central, modules, bus, clock, logger });
  await scheduler.start();
  const jobs = new ModuleJobs({ store: new ModuleJobStore(central), queue: drivers.queue, modules, bus, clock, logger, limits: deps.config.moduleJobs });
  jobs.register();
  await jobs.start();

  return {
    runtime,
    quarantine,
    moduleData,
    source,
    modules,
    providers,
    bus,
    events,
    audit,
    scheduler,
    secrets,
    jobs,
    sandboxTimings: invoker.timings,
    fetchGrantsChanged,
    close: async () => {
      await audit.close();
      runtime.dispose();
      await moduleData.close();
    },
  };
}
