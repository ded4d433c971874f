/**
 * Where this process keeps report files: the stage's S3 bucket when the stack named it
 * (REPORT_BUCKET_NAME), else the local runtime's folder (REPORT_FILES_DIR). Read at each use: the
 * local runtime's tests start it again with another folder.
 */
import type { ReportFiles } from '../domain/reports';
import { ENV } from '../runtime/config';
import { localReportFiles } from './local-report-files';
import { s3ReportFiles } from './s3-report-files';

const files = (): ReportFiles => (process.env[ENV.reportBucketName] ? s3ReportFiles : localReportFiles);

export const reportFiles: ReportFiles = {
  create: (name) => files().create(name),
  downloadUrl: (name, filename, expiresAt) => files().downloadUrl(name, filename, expiresAt),
};
