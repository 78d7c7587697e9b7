/**
 * A module's own settings in the current tenant (core/kernel/module-settings; sdk/runtime/settings.ts
 * types them for authors): the values of the manifest's `settings` schema, defaults filled in.
 * Secrets (`writeOnly`) read in clear here only, for the module that owns them.
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

/** The stored document's cap, in bytes of its JSON (secrets count apart, as module secrets). */
export const SETTINGS_DOCUMENT_BYTES = 64 * 1024;

/**
 * A secret setting is kept as the module secret "settings:<name>" (core/kernel/module-settings);
 * declared secret names cannot hold ":", so none collides with one.
 */
export const SETTING_SECRET_PREFIX = 'settings:';

const Values = Type.Record(Type.String(), Type.Unknown());

export const settingsGet = coreContract({
  name: 'settings.get',
  description: "The calling module's settings in the current tenant: stored values, defaults for the rest, secrets in clear (null when unset).",
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({
    values: Values,
    stored: Type.Array(Type.String(), { description: 'The names that hold a value of their own (not a default), secrets included.' }),
  }),
  public: true,
});

export const settingsSet = coreContract({
  name: 'settings.set',
  description:
    "Writes the calling module's settings in the current tenant, validated by its manifest's settings schema: merged into the stored ones, or replacing them with replace: true. A null value removes a setting. Never answers a secret.",
  input: Type.Object({ values: Values, replace: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
  output: Type.Object({ updated_at: Type.String() }),
  public: true,
});
