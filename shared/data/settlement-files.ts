/**
 * Where the sponsor bank's settlement files are kept (shared/domain/settlement-files.ts): beside the
 * report files, under their own prefix, in the stage's S3 bucket when the stack named it
 * (REPORT_BUCKET_NAME; only the functions that declare `settlementFiles` reach that prefix), else in
 * the local runtime's folder (REPORT_FILES_DIR). A file is written whole, once, under a name no other
 * file has (its day and version), and read back a line at a time, never held whole by the reader.
 * The bucket's lifecycle deletes it after REPORT_FILE_DAYS: its reconciliation is kept in the table.
 */
import { createReadStream } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { SettlementFiles } from '../domain/settlement-files';
import { ENV } from '../runtime/config';
import { bucket, s3 } from './s3-client';

/** The names the settlement files have (settlementFileName): nothing else is ever read or written. */
const FILE_NAME =
  /^settlement-files\/[0-9]{4}-[0-9]{2}-[0-9]{2}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.ndjson$/;

function checked(name: string): string {
  if (!FILE_NAME.test(name)) throw new Error(`Not the name of a settlement file: ${name}`);
  return name;
}

/** The lines of a stream of UTF-8 text, CRLF or LF. */
async function* linesOf(stream: Readable): AsyncGenerator<string> {
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  try {
    for await (const line of reader) yield line;
  } finally {
    reader.close();
  }
}

const localPath = (name: string): string => {
  const dir = process.env[ENV.reportFilesDir];
  if (!dir) throw new Error(`${ENV.reportFilesDir} is not set: the local runtime sets it (npm start)`);
  return join(dir, checked(name));
};

/** The data folder's files: written to a part file and renamed, so a reader never meets half a file. */
export const localSettlementFiles: SettlementFiles = {
  async put(name, text) {
    const path = localPath(name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(`${path}.part`, text, 'utf8');
    await rename(`${path}.part`, path);
  },
  lines: (name) => linesOf(createReadStream(localPath(name), { encoding: 'utf8' })),
};

export const s3SettlementFiles: SettlementFiles = {
  async put(name, text) {
    await s3().send(
      new PutObjectCommand({
        Bucket: bucket(),
        Key: checked(name),
        Body: text,
        ContentType: 'application/x-ndjson; charset=utf-8',
      }),
    );
  },
  async *lines(name) {
    const { Body } = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: checked(name) }));
    if (!Body) throw new Error(`Settlement file ${name} has no body`);
    yield* linesOf(Body as Readable);
  },
};

const files = (): SettlementFiles => (process.env[ENV.reportBucketName] ? s3SettlementFiles : localSettlementFiles);

/** The files of this process: S3 where the stack named the bucket, else the local folder. Read at each use. */
export const settlementFiles: SettlementFiles = {
  put: (name, text) => files().put(name, text),
  lines: (name) => files().lines(name),
};
