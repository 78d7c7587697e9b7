/** Typed errors of module secrets. None carries a secret's value, not even in part. */
import { MandiError } from '../errors';
import { SECRET_LIMITS } from './limits';

export const secretErrors = {
  moduleOnly: (op: string) =>
    new MandiError('SECRETS_MODULE_ONLY', `"${op}" is for module code: a module reads and writes its own secrets; tenant admins use /modules/{alias}/secrets.`, 403, {
      operation: op,
    }),
  notDeclared: (module: string, name: string) =>
    new MandiError('SECRET_NOT_DECLARED', `Module "${module}" declares no secret "${name}": add {name: "${name}", description} to "secrets" in its module.json.`, 404, {
      module,
      name,
    }),
  tooLarge: (bytes: number) =>
    new MandiError('SECRET_TOO_LARGE', `A secret's value is at most ${SECRET_LIMITS.valueBytes} bytes (UTF-8); this one has ${bytes}.`, 413, {
      limit: SECRET_LIMITS.valueBytes,
    }),
  tooMany: (module: string) =>
    new MandiError('SECRET_LIMIT', `Module "${module}" already keeps ${SECRET_LIMITS.perModule} secrets in this tenant: delete one first.`, 422, {
      module,
      limit: SECRET_LIMITS.perModule,
    }),
  unreadable: (module: string, name: string) =>
    new MandiError(
      'SECRET_UNREADABLE',
      `The secret "${name}" of module "${module}" could not be decrypted: it was altered in the database, or its key is in neither APP_KEY nor APP_KEY_PREVIOUS. Set it again.`,
      500,
      { module, name },
    ),
};
