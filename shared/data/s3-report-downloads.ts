/**
 * Downloads of the report files on AWS (s3-report-files.ts writes them): a presigned GetObject URL
 * that names the file's type, its name as an attachment, and expires.
 */
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ReportFiles } from '../domain/reports';
import { bucket, REPORT_CONTENT_TYPE, s3 } from './s3-client';

/** Download URLs of the bucket's report files (getReport's). */
export const s3ReportDownloads: Pick<ReportFiles, 'downloadUrl'> = {
  downloadUrl: (name, filename, expiresAt) =>
    getSignedUrl(
      s3(),
      new GetObjectCommand({
        Bucket: bucket(),
        Key: name,
        ResponseContentType: REPORT_CONTENT_TYPE,
        ResponseContentDisposition: `attachment; filename="${filename}"`,
      }),
      { expiresIn: Math.max(1, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000)) },
    ),
};
