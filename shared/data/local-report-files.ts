/**
 * The report files on a developer's machine (`npm start`): a folder (REPORT_FILES_DIR, under the data
 * folder), served by the local server under URLs signed with HMAC-SHA256 that expire, as S3's
 * presigned URLs do (infra/local/report-downloads.ts). The signing key is derived from the local
 * secret key (LOCAL_SECRET_KEY), so URLs outlive a restart on the same data folder.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import type { ReportFiles, ReportFileWriter } from '../domain/reports';
import { ENV } from '../runtime/config';

/**
 * The names the report files have (shared/domain/reports.ts, reportFile): under the client's folder,
 * or without one (written before the folders): nothing else is ever served, nor anything outside the
 * folder of report files (a folder is one segment of letters, digits, `_`, `-`, after a `~` or not).
 */
const FILE_NAME =
  /^reports\/(?:~?[A-Za-z0-9_-]{1,400}\/)?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.csv$/;
/** What a download may be saved as: the names getReport makes. */
const DOWNLOAD_NAME = /^[A-Za-z0-9._-]{1,200}$/;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: the local runtime sets it (npm start)`);
  return value;
}

/** The key that signs download URLs, apart from every other use of the local secret key. */
const signingKey = (): Buffer =>
  createHmac('sha256', Buffer.from(required(ENV.localSecretKey), 'base64'))
    .update('report-downloads')
    .digest();

const signatureOf = (name: string, expires: number, filename: string): string =>
  createHmac('sha256', signingKey()).update(`${name}\n${expires}\n${filename}`).digest('base64url');

/** The file `name` on disk: only names of report files (no path of the caller's choosing). */
export function localReportPath(name: string): string {
  if (!FILE_NAME.test(name)) throw new Error(`Not the name of a report file: ${name}`);
  return join(required(ENV.reportFilesDir), name);
}

/** A download URL's check: the file and the name to save it as, or why it is refused. */
export type DownloadCheck =
  | { readonly ok: true; readonly name: string; readonly filename: string }
  | { readonly ok: false; readonly reason: 'invalid' | 'expired' };

/**
 * Checks a download request (the path under the files URL, and its query): signed by this runtime,
 * for this file and name, and not expired at `nowMs`. A tampered URL is `invalid` whatever its expiry.
 */
export function checkDownload(name: string, query: URLSearchParams, nowMs: number): DownloadCheck {
  const expires = Number(query.get('expires'));
  const filename = query.get('filename') ?? '';
  const signature = Buffer.from(query.get('signature') ?? '');
  if (!FILE_NAME.test(name) || !DOWNLOAD_NAME.test(filename) || !Number.isSafeInteger(expires)) {
    return { ok: false, reason: 'invalid' };
  }
  const expected = Buffer.from(signatureOf(name, expires, filename));
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
    return { ok: false, reason: 'invalid' };
  }
  if (nowMs >= expires * 1000) return { ok: false, reason: 'expired' };
  return { ok: true, name, filename };
}

/** Writes to a part file beside the file, renamed to it on close: a reader never meets half a file. */
async function localWriter(path: string): Promise<ReportFileWriter> {
  await mkdir(dirname(path), { recursive: true });
  const part = `${path}.${randomUUID()}.part`;
  const stream = createWriteStream(part, { flags: 'wx' });
  // A failed write answers the call that made it: never an 'error' event nobody hears (a crash).
  stream.on('error', () => {});
  await once(stream, 'open');
  return {
    async write(text) {
      // Each write is on disk before the next is given: the writer holds one page at most, and an
      // abort never meets a write still under way.
      await new Promise<void>((resolve, reject) =>
        stream.write(text, 'utf8', (error) => (error ? reject(error) : resolve())),
      );
    },
    async close() {
      stream.end();
      await once(stream, 'close');
      await rename(part, path);
    },
    async abort() {
      stream.destroy();
      await rm(part, { force: true });
    },
  };
}

export const localReportFiles: ReportFiles = {
  create: (name) => localWriter(localReportPath(name)),
  async downloadUrl(name, filename, expiresAt) {
    if (!DOWNLOAD_NAME.test(filename)) throw new Error(`Not a download name: ${filename}`);
    const expires = Math.floor(Date.parse(expiresAt) / 1000);
    const query = new URLSearchParams({
      expires: String(expires),
      filename,
      signature: signatureOf(name, expires, filename),
    });
    return `${required(ENV.localFilesUrl)}/${name}?${query}`;
  },
};
