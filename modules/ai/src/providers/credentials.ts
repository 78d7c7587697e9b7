/**
 * API keys, write-only: each kind's keys are one module secret holding {provider id: key} (the host
 * encrypts it; secrets are declared by name, provider ids are the tenant's). Rows keep only the
 * hint (last 4 characters). Writers of one kind are serialised by a row lock on the kind's Setting
 * row, so two credential saves for different providers never lose one another's key.
 */
import { secrets, type HandlerContext } from '../../../../sdk';
import { forgetConfig } from '../config-cache';

export type Kind = 'llm' | 'stt' | 'tts';

const secretOf = (kind: Kind) => `${kind}_api_keys`;

async function readKeys(ctx: HandlerContext, kind: Kind): Promise<Record<string, string>> {
  const raw = await secrets(ctx.host).get(secretOf(kind));
  if (!raw) return {};
  const parsed = JSON.parse(raw) as unknown;
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
}

/** The key of one provider, or null. */
export async function apiKeyOf(ctx: HandlerContext, kind: Kind, providerId: string): Promise<string | null> {
  const keys = await readKeys(ctx, kind);
  return Object.prototype.hasOwnProperty.call(keys, providerId) ? keys[providerId]! : null;
}

/** What responses show of a key: its last 4 characters, none for keys under 12 (too much of them). */
export const hintOf = (key: string) => (key.length >= 12 ? `…${key.slice(-4)}` : null);

/**
 * Sets (a string) or removes (null) one provider's key, under the kind's lock.
 */
export async function writeKey(ctx: HandlerContext, kind: Kind, providerId: string, key: string | null): Promise<void> {
  await ctx.host.db.transaction(async (tx) => {
    // The lock: writing the kind's lock row holds its row lock until the transaction ends.
    await tx.upsert('Setting', { key: `${kind}_keys_lock`, value: {}, updated_at: new Date(ctx.host.now()).toISOString() });
    const keys = await readKeys(ctx, kind);
    if (key === null) {
      if (!(providerId in keys)) return;
      delete keys[providerId];
    } else keys[providerId] = key;
    if (Object.keys(keys).length === 0) await secrets(ctx.host).delete(secretOf(kind));
    else await secrets(ctx.host).set(secretOf(kind), JSON.stringify(keys));
  });
  forgetConfig();
}
