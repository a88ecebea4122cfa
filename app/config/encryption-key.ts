import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppConfig } from './config';

export const DEV_KEY_FILE = 'encryption.key';

export interface ResolvedKey {
  key: Buffer;
  /** Where the key came from, for one log line at startup (never the key itself). */
  source: 'APP_ENCRYPTION_KEY' | 'generated' | 'data-dir';
  path?: string;
}

/**
 * The key that seals secrets at rest. Outside dev it is APP_ENCRYPTION_KEY (config refuses to
 * start without it). In dev an unset key is generated once and kept in APP_DATA_DIR, readable by
 * the owner only: TOTP secrets must survive a restart, so a per-process key would not do. The
 * file is written under a temporary name and hard-linked into place, which fails if another
 * process got there first; that process's key is then read, so every instance agrees.
 */
export async function resolveEncryptionKey(config: Pick<AppConfig, 'encryptionKey' | 'dataDir'>): Promise<ResolvedKey> {
  if (config.encryptionKey !== undefined) return { key: Buffer.from(config.encryptionKey, 'base64'), source: 'APP_ENCRYPTION_KEY' };
  const path = join(config.dataDir, DEV_KEY_FILE);
  const existing = await readKey(path);
  if (existing) return { key: existing, source: 'data-dir', path };
  await mkdir(config.dataDir, { recursive: true });
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temporary, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await rm(temporary, { force: true });
  }
  const key = await readKey(path);
  if (!key) throw new Error(`${path} does not hold a 32-byte base64 key`);
  return { key, source: 'generated', path };
}

async function readKey(path: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key; delete it only if no TOTP secret was sealed with it`);
  return key;
}
