/**
 * The S3 client and the stage's files bucket (REPORT_BUCKET_NAME), for the functions that touch files:
 * report files, settlement files, audit copies.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { tracer } from '../observability/telemetry';
import { ENV } from '../runtime/config';

/** What a report file is, written and downloaded. */
export const REPORT_CONTENT_TYPE = 'text/csv; charset=utf-8';

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
