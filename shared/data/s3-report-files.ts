/**
 * The report files on AWS: an S3 bucket (REPORT_BUCKET_NAME; infra/constructs/report-bucket.ts),
 * encrypted, private, its objects deleted after REPORT_FILE_DAYS. A file is written in parts of
 * PART_BYTES (S3's multipart upload; a file smaller than one part is one PutObject), so the writer
 * holds one part at most, whatever the report's length. Downloads are presigned GetObject URLs.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ReportFiles, ReportFileWriter } from '../domain/reports';
import { tracer } from '../observability/telemetry';
import { ENV } from '../runtime/config';

/** S3's smallest part but the last: the writer sends a part each time it holds this much. */
export const PART_BYTES = 5 * 1024 * 1024;
const CONTENT_TYPE = 'text/csv; charset=utf-8';

let s3Client: S3Client | undefined;

/** One client per process, traced as DynamoDB's; LocalStack through AWS_ENDPOINT_URL. */
export function s3(): S3Client {
  if (s3Client) return s3Client;
  const endpoint = process.env[ENV.awsEndpoint];
  const client = new S3Client({ ...(endpoint ? { endpoint, forcePathStyle: true } : {}), maxAttempts: 3 });
  s3Client = tracer.isTracingEnabled() ? tracer.captureAWSv3Client(client) : client;
  return s3Client;
}

/** The stage's files bucket: report files and settlement files, each under its own prefix. */
export function bucket(): string {
  const name = process.env[ENV.reportBucketName];
  if (!name)
    throw new Error(`${ENV.reportBucketName} is not set: the stack sets it on the functions that declare reportFiles`);
  return name;
}

/** A multipart upload once the file outgrows one part; a single PutObject for a smaller file. */
function s3Writer(Bucket: string, Key: string): ReportFileWriter {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let uploadId: string | undefined;
  const parts: { ETag: string; PartNumber: number }[] = [];

  const sendPart = async (): Promise<void> => {
    uploadId ??= (await s3().send(new CreateMultipartUploadCommand({ Bucket, Key, ContentType: CONTENT_TYPE })))
      .UploadId;
    const PartNumber = parts.length + 1;
    const body = Buffer.concat(held);
    held = [];
    heldBytes = 0;
    const { ETag } = await s3().send(
      new UploadPartCommand({ Bucket, Key, UploadId: uploadId, PartNumber, Body: body }),
    );
    parts.push({ ETag: ETag!, PartNumber });
  };

  return {
    async write(text) {
      const chunk = Buffer.from(text, 'utf8');
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes >= PART_BYTES) await sendPart();
    },
    async close() {
      if (uploadId === undefined) {
        await s3().send(new PutObjectCommand({ Bucket, Key, Body: Buffer.concat(held), ContentType: CONTENT_TYPE }));
        return;
      }
      if (heldBytes > 0) await sendPart();
      await s3().send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    },
    async abort() {
      held = [];
      // The parts sent so far are billed until the upload is aborted (the lifecycle also aborts it).
      if (uploadId !== undefined) await s3().send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId: uploadId }));
    },
  };
}

export const s3ReportFiles: ReportFiles = {
  create: async (name) => s3Writer(bucket(), name),
  downloadUrl: (name, filename, expiresAt) =>
    getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: bucket(),
        Key: name,
        ResponseContentType: CONTENT_TYPE,
        ResponseContentDisposition: `attachment; filename="${filename}"`,
      }),
      { expiresIn: Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000)) },
    ),
};
