/**
 * `public_tokens.register` and `public_tokens.revoke`: how a module tells the host which tenant a
 * token of its public routes (http.public; spec 2, Public webhook trigger and the widget endpoints)
 * belongs to. The tenant is always the one the module is running for and the module always the
 * caller: nobody can register a token for another tenant or under another module's prefix. The host
 * makes every token (DESIGN.md, wave 3: a public token belongs to one module): a token is public once
 * it is in a page, and one a caller could choose could be one another module's visitors already
 * carry. Only the token's sha256 is stored (tokens are long random strings: a fast hash loses
 * nothing), unique on its own, so a token names one module in one tenant. A tenant holds at most
 * PUBLIC_TOKEN_LIMIT tokens per module, so a module (or a tenant admin driving it) cannot fill the
 * central database.
 */
import { createHash, randomBytes } from 'node:crypto';
import { publicTokensRegister, publicTokensRevoke } from '../../../sdk/contracts/platform';
import type { Bus } from '../bus/bus';
import { defineCoreOperation } from '../bus/core-operation';
import type { Caller } from '../bus/types';
import type { CentralDb } from '../data/central-db';
import { forbidden } from '../errors';
import { moduleErrors } from './errors';
import type { ModuleHost } from './module-host';

/** What a token may look like: URL-safe, long enough not to be guessed (spec 2: a widget token has 32 characters). */
export const PUBLIC_TOKEN = /^[A-Za-z0-9_-]{20,128}$/;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function registerPublicTokenOperations(bus: Bus, deps: { central: CentralDb; modules: ModuleHost; limit: number }): void {
  const { ModulePublicToken } = deps.central.models;

  /** The calling module, when it is installed in the tenant and owns a public prefix. */
  const owner = async (caller: Caller, tenantId: string): Promise<string> => {
    if (caller.kind !== 'module') throw forbidden('Public tokens are registered by the module whose public routes they open.');
    const mod = (await deps.modules.modulesFor(tenantId)).byAlias.get(caller.alias);
    if (!mod?.manifest.http?.public) {
      throw forbidden(`Module "${caller.alias}" declares no public routes: add http.public {prefix, routes} to its module.json before registering tokens.`, { module: caller.alias });
    }
    return caller.alias;
  };

  bus.registerCore(defineCoreOperation(publicTokensRegister, async (input, ctx, caller) => {
    const alias = await owner(caller, ctx.tenantId);
    const token = randomBytes(24).toString('base64url');
    await deps.central.sequelize.transaction(async (transaction) => {
      // One registration per (tenant, module) at a time, so concurrent calls cannot pass the limit together.
      await deps.central.sequelize.query('SELECT pg_advisory_xact_lock(hashtext($1))', { bind: [`public_tokens:${ctx.tenantId}:${alias}`], transaction });
      const count = await ModulePublicToken.count({ where: { alias, tenant_id: ctx.tenantId }, transaction });
      if (count >= deps.limit) {
        throw moduleErrors.publicTokenLimit(deps.limit, alias);
      }
      await ModulePublicToken.create({ alias, token_hash: hashToken(token), tenant_id: ctx.tenantId, label: input.label ?? null }, { transaction });
    });
    return { registered: true, token };
  }));

  bus.registerCore(defineCoreOperation(publicTokensRevoke, async (input, ctx, caller) => {
    const alias = await owner(caller, ctx.tenantId);
    const removed = await ModulePublicToken.destroy({ where: { alias, token_hash: hashToken(input.token), tenant_id: ctx.tenantId } });
    return { revoked: removed > 0 };
  }));
}
