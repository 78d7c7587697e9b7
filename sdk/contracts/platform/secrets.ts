/**
 * A module's own secrets in the current tenant (core/kernel/secrets/secret-operations.ts; sdk/runtime/secrets.ts
 * types them for authors). Names are the manifest's `secrets[].name` pattern; values up to 64 KB.
 */
import * as Type from '../../runtime/schema';
import { coreContract } from './core-contract';

/** maxLength counts characters; the store also bounds the UTF-8 bytes (64 KB: a PEM private key fits, a database dump does not). */
export const SECRET_VALUE_BYTES = 64 * 1024;

/**
 * The manifest's `secrets[].name` pattern (sdk/manifest/manifest.schema.json; test/bus/core-contracts.test.ts
 * holds them equal): written out, since module code type-checks these types without JSON modules.
 */
export const SECRET_NAME_PATTERN = '^[a-z][a-z0-9_]{0,63}$';
const Name = Type.String({ pattern: SECRET_NAME_PATTERN });
const NameInput = Type.Object({ name: Name }, { additionalProperties: false });

/** What anyone may know of a secret: its last 4 characters (null for values under 12) and when it was set. */
export const SecretHint = Type.Object({ name: Type.String(), hint: Type.Nullable(Type.String()), set_at: Type.String() });

export const secretsSet = coreContract({
  name: 'secrets.set',
  description: "Stores a secret of the calling module in the current tenant, encrypted; answers its hint. The name must be declared in the module's manifest.",
  input: Type.Object({ name: Name, value: Type.String({ minLength: 1, maxLength: SECRET_VALUE_BYTES }) }, { additionalProperties: false }),
  output: SecretHint,
  public: true,
});

export const secretsGet = coreContract({
  name: 'secrets.get',
  description: 'The plaintext of a secret of the calling module in the current tenant, or null when unset.',
  input: NameInput,
  output: Type.Object({ value: Type.Nullable(Type.String()) }),
  public: true,
});

export const secretsHint = coreContract({
  name: 'secrets.hint',
  description: "A secret's hint (its last 4 characters) and when it was set, or null when unset; never the value.",
  input: NameInput,
  output: Type.Object({ secret: Type.Union([SecretHint, Type.Null()]) }),
  public: true,
});

export const secretsList = coreContract({
  name: 'secrets.list',
  description: "Hints of the calling module's secrets in the current tenant; never the values.",
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Object({ secrets: Type.Array(SecretHint) }),
  public: true,
});

export const secretsDelete = coreContract({
  name: 'secrets.delete',
  description: 'Deletes a secret of the calling module in the current tenant; answers whether there was one.',
  input: NameInput,
  output: Type.Object({ deleted: Type.Boolean() }),
  public: true,
});
