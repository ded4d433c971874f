/**
 * The local stand-in for the stage's QR signing secret (Secrets Manager in AWS): the same JSON,
 * `{"current": "<key>"}`, generated once and kept in DATA_DIR so that codes printed before a restart
 * still verify. With ':memory:' a fresh key per run.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseSigningKeys } from '../../shared/data/qr-signing-keys';

export function localQrSigningSecret(secretFile: string | undefined): string {
  if (secretFile && existsSync(secretFile)) {
    const json = readFileSync(secretFile, 'utf8');
    parseSigningKeys(json); // A damaged file stops the start, rather than signing with garbage.
    return json;
  }
  const json = JSON.stringify({ current: randomBytes(32).toString('hex') });
  if (secretFile) writeFileSync(secretFile, json, { mode: 0o600 });
  return json;
}
