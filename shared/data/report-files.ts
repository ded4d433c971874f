/**
 * Where this process writes report files: the stage's S3 bucket when the stack named it
 * (REPORT_BUCKET_NAME), else the local runtime's folder (REPORT_FILES_DIR). Read at each use: the
 * local runtime's tests start it again with another folder. Their downloads: report-downloads.ts.
 */
import type { ReportFiles } from '../domain/reports';
import { ENV } from '../runtime/config';
import { localReportFiles } from './local-report-files';
import { s3ReportWriters } from './s3-report-files';

/** New report files (runReport's). */
export const reportWriters: Pick<ReportFiles, 'create'> = {
  create: (name) => (process.env[ENV.reportBucketName] ? s3ReportWriters : localReportFiles).create(name),
};
