/**
 * POST /mobile/screens/{screenId}/action/{actionId} (spec 1: "runs a server-side action and returns
 * its result"), as the requesting user: the provider's `action` operation with {action_id, body,
 * context}, or else the action object with that id in the definition, whose operation is called
 * with its `params` filled from the JSON body (`{{key}}`), or with the body when it declares none.
 */
import type { ScreenProvider } from '../../../sdk/manifest';
import { catalogErrors } from './errors';
import type { LoadedModule } from '../../kernel/modules/loaded-module';
import { resolvePlaceholders } from './placeholders';
import { findAction, type ScreenDefinition } from './screen-definition';
import { assertScreenMayCall } from './screen-definitions';
import type { UserCall } from './user-calls';

export async function runScreenAction(args: {
  definition: ScreenDefinition;
  actionId: string;
  body: Record<string, unknown>;
  provider: ScreenProvider | undefined;
  mod: LoadedModule;
  tenant: { id: string; ring: string };
  call: UserCall;
}): Promise<unknown> {
  const { definition, actionId, body, provider, mod, call } = args;
  if (provider?.action) {
    const context = { screen_id: definition.id, tenant_id: args.tenant.id, ring: args.tenant.ring };
    return call(provider.action, { action_id: actionId, body, context });
  }
  const action = findAction(definition, actionId);
  if (!action) throw catalogErrors.actionNotFound(definition.id, actionId);
  assertScreenMayCall(mod, definition.id, action.operation);
  return call(action.operation, action.params ? resolvePlaceholders(action.params, body) : body);
}
