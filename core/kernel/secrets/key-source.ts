/**
 * Where the platform key comes from: the one source for every key the platform derives (AppKeys).
 *
 * 1. APP_KEY when set (production should set it: a copy of the databases alone then decrypts
 *    nothing). APP_KEY_PREVIOUS lists the keys it replaced, for the rotation (secret-rotation.ts).
 * 2. Unset: the file <DATA_DIR>/app.key (mode 0600), generated on first start.
 *
 * Installs that ran an earlier version without APP_KEY kept a generated key in the central database
 * (platform_settings `app_key` = {key}). Without APP_KEY that key is moved into the file on first
 * start, so the 2FA secrets encrypted under it still decrypt, and only its fingerprint stays in the
 * database. With APP_KEY it joins the ring as a previous key until the rotation has moved its
 * values (the row is left for that).
 *
 * The fingerprint of the current key is recorded (platform_settings `app_key` = {key_id}); a node
 * whose ring does not hold the recorded key refuses to start: a changed APP_KEY without
 * APP_KEY_PREVIOUS, or a node with a missing or different key file (several nodes must set APP_KEY
 * or share DATA_DIR), would otherwise encrypt under a key the values and the other nodes do not use.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppKeys, keyIdOf } from './app-key';
import type { Config } from '../../config';
import type { CentralDb } from '../data/central-db';
import type { Logger } from '../logger';

const SETTING = 'app_key';
export const KEY_FILE = 'app.key';

/** A key as configured: `base64:<bytes>` is the bytes it encodes, anything else its UTF-8 bytes. */
export function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  return trimmed.startsWith('base64:') ? Buffer.from(trimmed.slice(7), 'base64') : Buffer.from(trimmed, 'utf8');
}

type Stored = { key?: string; key_id?: string };

export async function loadAppKeys(config: Pick<Config, 'appKey' | 'appKeyPrevious' | 'dataDir'>, central: CentralDb, logger: Logger): Promise<AppKeys> {
  const { PlatformSetting } = central.models;
  const stored = (await PlatformSetting.findByPk(SETTING))?.value as Stored | undefined;
  const previous = config.appKeyPrevious.map(parseKey);
  let current: Buffer;
  if (config.appKey) {
    current = parseKey(config.appKey);
    if (stored?.key) {
      previous.push(Buffer.from(stored.key, 'base64'));
      logger.warn('the platform key an earlier version kept in the central database is still in use: run POST /admin/secrets/rotate');
    }
  } else {
    current = await fileKey(path.join(config.dataDir, KEY_FILE), stored, central, logger);
  }

  const keys = new AppKeys({ current, previous });
  const recorded = ((await PlatformSetting.findByPk(SETTING))?.value as Stored | undefined)?.key_id;
  if (recorded && !keys.holds(recorded)) {
    throw new Error(
      `The platform key (id ${keys.keyId}) is not this installation's (id ${recorded})${config.appKey ? '' : ` in ${path.join(config.dataDir, KEY_FILE)}`}: ` +
        'every node must use the same APP_KEY (or share DATA_DIR); to change the key, keep the old one in APP_KEY_PREVIOUS and run the rotation (docs/reference/platform-key.md).',
    );
  }
  if (recorded !== keys.keyId && !stored?.key) await PlatformSetting.upsert({ key: SETTING, value: { key_id: keys.keyId } });
  return keys;
}

async function fileKey(file: string, stored: Stored | undefined, central: CentralDb, logger: Logger): Promise<Buffer> {
  const key = readKeyFile(file);
  if (key) return key;
  if (stored?.key) {
    // An earlier version's key, kept in the database: moved into the file, its fingerprint left behind.
    const moved = writeKeyFile(file, Buffer.from(stored.key, 'base64'));
    await central.models.PlatformSetting.update({ value: { key_id: keyIdOf(moved) } }, { where: { key: SETTING } });
    logger.info({ file, key_id: keyIdOf(moved) }, 'moved the platform key from the central database into the data folder');
    return moved;
  }
  if (stored?.key_id) {
    throw new Error(
      `APP_KEY is not set and ${file} does not exist, but this installation already has a platform key (id ${stored.key_id}) on another node: ` +
        'set APP_KEY on every node, or give every node the same DATA_DIR (or copy app.key into this one).',
    );
  }
  const generated = writeKeyFile(file, randomBytes(32));
  // Two nodes may start at once: the first fingerprint wins, and a node that lost is refused by the caller.
  await central.sequelize.query(`INSERT INTO platform_settings (key, value, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) DO NOTHING`, {
    bind: [SETTING, JSON.stringify({ key_id: keyIdOf(generated) })],
  });
  logger.warn({ file }, 'APP_KEY is not set: generated the platform key into the data folder (several nodes must set APP_KEY or share DATA_DIR)');
  return generated;
}

function readKeyFile(file: string): Buffer | undefined {
  try {
    return parseKey(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Created exclusively with mode 0600; returns the file's key (another process's, when it won the race). */
function writeKeyFile(file: string, key: Buffer): Buffer {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `base64:${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return readKeyFile(file)!;
}
