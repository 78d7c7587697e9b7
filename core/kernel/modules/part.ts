/** The module kernel part (core/kernel/parts): the bus, the sandbox runtime and the module host, with MODULE_PATHS loaded and module jobs resumed. */
import { registryRef } from '../../../registry/part';
import { clockRef } from '../clock-part';
import { configRef } from '../../config';
import { centralRef, tenantDbsRef } from '../data/parts';
import { driversRef } from '../drivers/parts';
import { loggerRef } from '../logger';
import { definePart, partRef } from '../parts';
import { keysRef } from '../secrets/part';
import { createModuleKernel, type ModuleKernel } from './kernel';
import { loadModuleFromDir } from './loaded-module';

export const kernelRef = partRef<ModuleKernel>('kernel');

/** `onFatal`: this process can no longer be trusted (an isolate was lost beyond recovery). */
export const kernelPart = (onFatal?: (reason: string) => void) =>
  definePart({
    ref: kernelRef,
    deps: { config: configRef, central: centralRef, keys: keysRef, tenantDbs: tenantDbsRef, drivers: driversRef, logger: loggerRef, clock: clockRef, registry: registryRef },
    init: async ({ registry, ...deps }) => {
      const localModules = [];
      for (const dir of deps.config.modulePaths) localModules.push(await loadModuleFromDir(dir));
      const kernel = await createModuleKernel({
        ...deps,
        registry: registry.source,
        localModules,
        onIsolateLost: (key) => onFatal?.(`the isolate of module ${key} was lost beyond recovery`),
      });
      await kernel.jobs.resume();
      return kernel;
    },
    stop: (kernel) => kernel.close(),
  });
