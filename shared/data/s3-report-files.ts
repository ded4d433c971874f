/**
 * The report files on AWS: an S3 bucket (REPORT_BUCKET_NAME; infra/constructs/report-bucket.ts),
 * encrypted, private, its objects deleted after REPORT_FILE_DAYS. A file is written in parts of
 * PART_BYTES by `@aws-sdk/lib-storage` (S3's multipart upload; a file smaller than one part is one
 * PutObject), so the writer holds about one part, whatever the report's length. Their downloads are
 * s3-report-downloads.ts's, apart: getReport's bundle carries no uploader.
 */
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { Upload } from '@aws-sdk/lib-storage';
import type { ReportFiles, ReportFileWriter } from '../domain/reports';
import { bucket, REPORT_CONTENT_TYPE, s3 } from './s3-client';

/** S3's smallest part but the last: the writer sends a part each time it holds this much. */
export const PART_BYTES = 5 * 1024 * 1024;

/**
 * The file streamed to lib-storage's Upload: one part at a time (queueSize 1), so the writer holds one
 * part and what its stream buffers, however long the report. A write waits while the part before
 * goes up; a failed upload fails the next write or the close. Abandoning the file errs its stream:
 * Upload then aborts the multipart upload (no part stays billed) before its `done` settles.
 */
function s3Writer(Bucket: string, Key: string): ReportFileWriter {
  const body = new PassThrough();
  const upload = new Upload({
    client: s3(),
    params: { Bucket, Key, Body: body, ContentType: REPORT_CONTENT_TYPE },
    partSize: PART_BYTES,
    queueSize: 1,
  });
  const done = upload.done();
  // Settled by close or abort; until then a failure is seen by the next write.
  done.catch(() => undefined);

  return {
    async write(text) {
      if (!body.write(text, 'utf8')) await Promise.race([once(body, 'drain'), done]);
    },
    async close() {
      body.end();
      await done;
    },
    async abort() {
      body.destroy(new Error('The report file was given up'));
      await done.catch(() => undefined);
    },
  };
}

/** Report files written to the bucket (runReport's). */
export const s3ReportWriters: Pick<ReportFiles, 'create'> = {
  create: async (name) => s3Writer(bucket(), name),
};
