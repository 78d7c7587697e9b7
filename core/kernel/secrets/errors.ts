/** Typed errors of module secrets. None carries a secret's value, not even in part. */
import { defineErrors } from '../errors';
import { SECRET_LIMITS } from './limits';

export const secretErrors = defineErrors('secrets', {
  moduleOnly: {
    code: 'SECRETS_MODULE_ONLY', status: 403,
    doc: "A secrets operation was called by something other than module code: tenant admins use /modules/{alias}/secrets.",
    message: (op: string) => `"${op}" is for module code: a module reads and writes its own secrets; tenant admins use /modules/{alias}/secrets.`,
    details: (op: string) => ({ operation: op }),
  },
  notDeclared: {
    code: 'SECRET_NOT_DECLARED', status: 404,
    doc: 'The module declares no secret of that name in its manifest.',
    message: (module: string, name: string) => `Module "${module}" declares no secret "${name}": add {name: "${name}", description} to "secrets" in its module.json.`,
    details: (module: string, name: string) => ({ module, name }),
  },
  tooLarge: {
    code: 'SECRET_TOO_LARGE', status: 413,
    doc: "A secret's value is over the size limit (SECRET_LIMITS.valueBytes, UTF-8).",
    message: (bytes: number) => `A secret's value is at most ${SECRET_LIMITS.valueBytes} bytes (UTF-8); this one has ${bytes}.`,
    details: () => ({ limit: SECRET_LIMITS.valueBytes }),
  },
  tooMany: {
    code: 'SECRET_LIMIT', status: 422,
    doc: 'The module already keeps its maximum number of secrets in this tenant: delete one first.',
    message: (module: string) => `Module "${module}" already keeps ${SECRET_LIMITS.perModule} secrets in this tenant: delete one first.`,
    details: (module: string) => ({ module, limit: SECRET_LIMITS.perModule }),
  },
  unreadable: {
    code: 'SECRET_UNREADABLE', status: 500,
    doc: 'A stored secret could not be decrypted: it was altered in the database, or its key is in neither APP_KEY nor APP_KEY_PREVIOUS. Set it again.',
    message: (module: string, name: string) =>
      `The secret "${name}" of module "${module}" could not be decrypted: it was altered in the database, or its key is in neither APP_KEY nor APP_KEY_PREVIOUS. Set it again.`,
    details: (module: string, name: string) => ({ module, name }),
  },
});
