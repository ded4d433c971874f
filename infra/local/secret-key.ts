/**
 * The local stand-in for the stage's KMS key that seals webhook and approval secrets
 * (shared/data/secret-sealing.ts): 32 random bytes, generated once and kept in DATA_DIR so that
 * secrets sealed before a restart still open. With ':memory:' a fresh key per run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function localSecretKey(keyFile: string | undefined): string {
  if (keyFile && existsSync(keyFile)) {
    const key = readFileSync(keyFile, 'utf8').trim();
    // A damaged file stops the start, rather than sealing with a key that cannot open the rest.
    if (Buffer.from(key, 'base64').length !== 32) throw new Error(`${keyFile} does not hold a 32-byte key`);
    return key;
  }
  const key = randomBytes(32).toString('base64');
  if (keyFile) writeFileSync(keyFile, key, { mode: 0o600 });
  return key;
}
