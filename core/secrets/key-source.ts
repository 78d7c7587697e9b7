/**
 * Where the platform key comes from: the one source for every key the platform derives (AppKeys).
 *
 * 1. APP_KEY when set (production should set it: a copy of the databases alone then decrypts
 *    nothing). APP_KEY_PREVIOUS lists the keys it replaced, for the rotation (secret-rotation.ts).
 * 2. Unset: the file <DATA_DIR>/app.key (mode 0600), generated on first start. Installs that ran an
 *    earlier version kept a generated key in the central database (platform_settings `app_key`):
 *    that key is moved into the file on first start, so 2FA secrets encrypted under it still
 *    decrypt, and only its fingerprint stays in the database.
 *
 * The fingerprint in platform_settings `app_key` is how nodes notice they disagree: a node without
 * APP_KEY whose file is missing or holds another key refuses to start (several nodes must set
 * APP_KEY or share DATA_DIR), where it would otherwise encrypt under a key the others cannot read.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppKeys, keyIdOf } from '../accounts/app-key';
import type { Config } from '../config';
import type { CentralDb } from '../data/central-db';
import type { Logger } from '../logger';

const SETTING = 'app_key';
export const KEY_FILE = 'app.key';

/** A key as configured: `base64:<bytes>` is the bytes it encodes, anything else its UTF-8 bytes. */
export function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  return trimmed.startsWith('base64:') ? Buffer.from(trimmed.slice(7), 'base64') : Buffer.from(trimmed, 'utf8');
}

export async function loadAppKeys(config: Pick<Config, 'appKey' | 'appKeyPrevious' | 'dataDir'>, central: CentralDb, logger: Logger): Promise<AppKeys> {
  const previous = config.appKeyPrevious.map(parseKey);
  if (config.appKey) return new AppKeys({ current: parseKey(config.appKey), previous });
  return new AppKeys({ current: await fileKey(config.dataDir, central, logger), previous });
}

type Stored = { key?: string; key_id?: string };

async function fileKey(dataDir: string, central: CentralDb, logger: Logger): Promise<Buffer> {
  const file = path.join(dataDir, KEY_FILE);
  const { PlatformSetting } = central.models;
  const stored = (await PlatformSetting.findByPk(SETTING))?.value as Stored | undefined;
  let key = readKeyFile(file);

  if (!key && stored?.key) {
    // An earlier version's key, kept in the database: moved into the file, its fingerprint left behind.
    key = writeKeyFile(file, Buffer.from(stored.key, 'base64'));
    await PlatformSetting.update({ value: { key_id: keyIdOf(key) } }, { where: { key: SETTING } });
    logger.info({ file, key_id: keyIdOf(key) }, 'moved the platform key from the central database into the data folder');
    return key;
  }
  if (!key && stored?.key_id) {
    throw new Error(
      `APP_KEY is not set and ${file} does not exist, but this installation already has a platform key (id ${stored.key_id}) on another node: ` +
        'set APP_KEY on every node, or give every node the same DATA_DIR (or copy app.key into this one).',
    );
  }
  if (!key) {
    key = writeKeyFile(file, randomBytes(32));
    // Two nodes may start at once: the first fingerprint wins, and a node that lost is refused below.
    await central.sequelize.query(
      `INSERT INTO platform_settings (key, value, updated_at) VALUES ($1, $2, now()) ON CONFLICT (key) DO NOTHING`,
      { bind: [SETTING, JSON.stringify({ key_id: keyIdOf(key) })] },
    );
    logger.warn({ file }, 'APP_KEY is not set: generated the platform key into the data folder (several nodes must set APP_KEY or share DATA_DIR)');
  }
  const recorded = ((await PlatformSetting.findByPk(SETTING))?.value as Stored | undefined)?.key_id;
  if (recorded && recorded !== keyIdOf(key)) {
    throw new Error(
      `The platform key in ${file} (id ${keyIdOf(key)}) is not this installation's (id ${recorded}): ` +
        'set APP_KEY on every node, or give every node the same DATA_DIR.',
    );
  }
  return key;
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
