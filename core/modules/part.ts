/** The module kernel part (core/parts): the bus, the sandbox runtime and the module host, with MODULE_PATHS loaded and module jobs resumed. */
import { platformPart } from '../parts/platform-parts';
import { createModuleKernel } from './kernel';
import { loadModuleFromDir } from './loaded-module';

/** `onFatal`: this process can no longer be trusted (an isolate was lost beyond recovery). */
export const kernelPart = (onFatal?: (reason: string) => void) =>
  platformPart({
    id: 'kernel',
    deps: ['config', 'central', 'keys', 'tenantDbs', 'drivers', 'logger', 'clock', 'registry'],
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
