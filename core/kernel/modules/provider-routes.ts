/**
 * A tenant's providers per contract (DESIGN.md, Host capabilities for modules), permission
 * `modules.manage`:
 *   GET /providers              → {data: [{contract: "payment", id: "payment@1", operations: [...],
 *                                  implementers: [alias, …] (installed), chosen: alias|null,
 *                                  serving: alias|null (what `payment.*` reaches now)}]}
 *   PUT /providers/{contract}   {module: alias|null} → that entry. The module must be installed in
 *                                the tenant and implement the contract (422 PROVIDER_NOT_IMPLEMENTING
 *                                naming the candidates); null clears the choice. Unknown contract: 404.
 */
import type { RequestHandler, Router } from 'express';
import { CONTRACTS, type Contract } from '../../../sdk/contracts';
import { requirePermission } from '../auth/authenticate';
import { currentContext } from '../context';
import { invalid, notFound } from '../errors';
import { moduleErrors } from './errors';
import type { ModuleHost } from './module-host';
import { resolveProvider, type ProviderChoices } from './provider-choices';

function entry(contract: Contract, implementers: string[], chosen: string | undefined, serving: string | null) {
  return { contract: contract.name, id: contract.id, operations: Object.keys(contract.operations).map((m) => `${contract.name}.${m}`), implementers, chosen: chosen ?? null, serving };
}

export function registerProviderRoutes(api: Router, deps: { modules: ModuleHost; providers: ProviderChoices; authenticated: RequestHandler }): void {
  const manage = requirePermission('modules.manage');
  const tenantId = () => currentContext()!.tenant!.id;

  const describe = async (id: string, contract: Contract) => {
    const mods = await deps.modules.modulesFor(id);
    const choices = await deps.providers.load(id);
    const implementers = mods.implementersOf(contract.name).map((m) => m.alias);
    let serving: string | null = null;
    try {
      serving = resolveProvider(mods, choices, contract.name, `${contract.name}.*`).alias;
    } catch {
      // none or ambiguous: `serving` says so by being null
    }
    return entry(contract, implementers, choices[contract.name], serving);
  };
  const contractNamed = (name: string) => {
    const found = [...CONTRACTS.values()].find((c) => c.name === name);
    if (!found) throw notFound(`There is no provider contract "${name}"; contracts: ${[...CONTRACTS.values()].map((c) => c.name).join(', ')}.`, { contract: name });
    return found;
  };

  api.get('/providers', deps.authenticated, manage, async (_req, res) => {
    res.json({ data: await Promise.all([...CONTRACTS.values()].map((c) => describe(tenantId(), c))) });
  });

  api.put('/providers/:contract', deps.authenticated, manage, async (req, res) => {
    const contract = contractNamed(String(req.params.contract));
    const module = (req.body as { module?: unknown } | undefined)?.module;
    if (module !== null && typeof module !== 'string') throw invalid('module', 'The module field must be the alias of an installed provider, or null to clear the choice.');
    const id = tenantId();
    if (module !== null) {
      const implementers = (await deps.modules.modulesFor(id)).implementersOf(contract.name).map((m) => m.alias);
      if (!implementers.includes(module)) {
        throw moduleErrors.notImplementing(module, contract.id, contract.name, implementers);
      }
    }
    await deps.providers.choose(id, contract.name, module);
    res.json(await describe(id, contract));
  });
}
