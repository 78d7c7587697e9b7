/** Typed errors of module settings. None carries a value. */
import { SETTINGS_DOCUMENT_BYTES } from '../../../sdk/contracts/platform';
import { defineErrors } from '../errors';

export const settingsErrors = defineErrors('settings', {
  moduleOnly: {
    code: 'SETTINGS_MODULE_ONLY', status: 403,
    doc: 'A settings operation was called by something other than module code: tenant admins use /modules/{alias}/settings.',
    message: (op: string) => `"${op}" is for module code: a module reads and writes its own settings; tenant admins use /modules/{alias}/settings.`,
    details: (op: string) => ({ operation: op }),
  },
  notDeclared: {
    code: 'SETTINGS_NOT_DECLARED', status: 404,
    doc: 'The module declares no settings in its manifest.',
    message: (module: string) => `Module "${module}" declares no settings: add a "settings" schema to its module.json.`,
    details: (module: string) => ({ module }),
  },
  tooLarge: {
    code: 'SETTINGS_TOO_LARGE', status: 413,
    doc: "A module's stored settings would be over the size limit (64 KB of JSON, secrets apart).",
    message: (bytes: number) => `A module's settings are at most ${SETTINGS_DOCUMENT_BYTES} bytes of JSON (secrets apart); these would be ${bytes}.`,
    details: () => ({ limit: SETTINGS_DOCUMENT_BYTES }),
  },
});
