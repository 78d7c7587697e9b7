/**
 * Publishers: who may publish packages without being a platform super admin, and the ed25519 key
 * their packages must be signed with once registered. A publisher authenticates with its own token
 * (`mndp_` + 40 characters, stored as SHA-256 only, like user tokens). The key is registered by a
 * super admin only: letting a token holder swap the key would make signatures worthless against a
 * stolen token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { UniqueConstraintError } from 'sequelize';
import { notFound, ValidationError } from '../core/kernel/errors';
import { registryErrors } from './errors';
import type { RegistryModels, RegistryPublisher } from './registry-models';
import { parsePublicKey, publicKeyPem } from './signature';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const NAME = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export const looksLikePublisherToken = (value: string) => /^mndp_[0-9A-Za-z]{40}$/.test(value);
const hash = (token: string) => createHash('sha256').update(token).digest('hex');

function newToken(): string {
  let out = 'mndp_';
  for (const b of randomBytes(40)) out += ALPHABET[b % 62];
  return out;
}

export interface PublisherView {
  id: number;
  name: string;
  public_key: string | null;
  created_at: string;
}

export const publisherView = (p: RegistryPublisher): PublisherView => ({
  id: p.id,
  name: p.name,
  public_key: p.public_key ?? null,
  created_at: p.created_at.toISOString(),
});

function normaliseKey(text: unknown, field = 'public_key'): string | null {
  if (text === undefined || text === null || text === '') return null;
  if (typeof text !== 'string') throw new ValidationError({ [field]: ['The public key must be a string.'] });
  try {
    return publicKeyPem(parsePublicKey(text));
  } catch (err) {
    throw new ValidationError({ [field]: [`The public key is not usable: ${(err as Error).message}.`] });
  }
}

export class Publishers {
  constructor(private readonly models: RegistryModels) {}

  async create(name: unknown, publicKey?: unknown): Promise<{ publisher: PublisherView; token: string }> {
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new ValidationError({ name: ['The name must be 1-100 lowercase letters, digits, ".", "_" or "-", starting with a letter or digit.'] });
    }
    const token = newToken();
    try {
      const row = await this.models.Publisher.create({ name, public_key: normaliseKey(publicKey), token_hash: hash(token) });
      return { publisher: publisherView(row), token };
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw registryErrors.publisherExists(name);
      throw err;
    }
  }

  async list(): Promise<PublisherView[]> {
    return (await this.models.Publisher.findAll({ order: [['name', 'ASC']] })).map(publisherView);
  }

  async byName(name: string): Promise<RegistryPublisher> {
    const row = await this.models.Publisher.findOne({ where: { name } });
    if (!row) throw notFound(`Publisher "${name}" does not exist.`, { publisher: name });
    return row;
  }

  async setKey(name: string, publicKey: unknown): Promise<PublisherView> {
    const row = await this.byName(name);
    await row.update({ public_key: normaliseKey(publicKey) });
    return publisherView(row);
  }

  /** A new token for the publisher; the old one stops working at once. */
  async rotateToken(name: string): Promise<string> {
    const row = await this.byName(name);
    const token = newToken();
    await row.update({ token_hash: hash(token) });
    return token;
  }

  async authenticate(token: string): Promise<RegistryPublisher | undefined> {
    if (!looksLikePublisherToken(token)) return undefined;
    return (await this.models.Publisher.findOne({ where: { token_hash: hash(token) } })) ?? undefined;
  }
}
