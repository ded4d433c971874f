/**
 * Download URLs of report files: presigned by S3 when the stack named the bucket (REPORT_BUCKET_NAME),
 * else signed by the local runtime. Apart from report-files.ts, so that getReport never loads the
 * uploader.
 */
import type { ReportFiles } from '../domain/reports';
import { ENV } from '../runtime/config';
import { localReportFiles } from './local-report-files';
import { s3ReportDownloads } from './s3-report-downloads';

export const reportDownloads: Pick<ReportFiles, 'downloadUrl'> = {
  downloadUrl: (name, filename, expiresAt) =>
    (process.env[ENV.reportBucketName] ? s3ReportDownloads : localReportFiles).downloadUrl(name, filename, expiresAt),
};
