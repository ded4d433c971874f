/**
 * The local stand-in of S3's presigned URLs (docs/reconciliation.md, "Reports"): GET
 * /local-files/reports/<client>/<id>.csv with the query getReport signed (shared/data/local-report-files.ts)
 * answers the file as an attachment, streamed from the data folder, without a token. A tampered URL
 * or an expired one is 403 DOWNLOAD_URL_REFUSED (problem+json; S3 answers its own XML there), a file
 * no longer kept 404.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { AppError, type ErrorCode } from '../../shared/domain/errors';
import { checkDownload, localReportPath } from '../../shared/data/local-report-files';
import { PROBLEM_CONTENT_TYPE, problemOf } from '../../shared/http/problem';
import { API_ANSWER_HEADERS } from '../../shared/http/responses';

/** Where the local server serves report files (LOCAL_FILES_URL is the server's URL and this path). */
export const LOCAL_FILES_PATH = '/local-files';

function refuse(response: ServerResponse, requestId: string, code: ErrorCode, detail: string): void {
  const problem = JSON.stringify(problemOf(new AppError(code, detail), requestId));
  response.writeHead(statusFor(code), {
    'content-type': PROBLEM_CONTENT_TYPE,
    ...API_ANSWER_HEADERS,
    'x-request-id': requestId,
    'content-length': Buffer.byteLength(problem),
  });
  response.end(problem);
}

const statusFor = (code: ErrorCode): number => problemOf(new AppError(code, ''), '').status;

/** Answers a request under LOCAL_FILES_PATH and says so; false for any other path. */
export async function answerDownloadRequest(
  method: string,
  url: URL,
  requestId: string,
  response: ServerResponse,
): Promise<boolean> {
  if (!url.pathname.startsWith(`${LOCAL_FILES_PATH}/`)) return false;
  if (method !== 'GET' && method !== 'HEAD') {
    refuse(response, requestId, 'METHOD_NOT_ALLOWED', 'Report files are read with GET');
    return true;
  }
  const name = url.pathname.slice(LOCAL_FILES_PATH.length + 1);
  const check = checkDownload(name, url.searchParams, Date.now());
  if (!check.ok) {
    const detail =
      check.reason === 'expired'
        ? 'The download URL has expired: GET the report again for a new one'
        : 'The download URL is not one the API signed';
    refuse(response, requestId, 'DOWNLOAD_URL_REFUSED', detail);
    return true;
  }
  const path = localReportPath(check.name);
  const size = await stat(path).then(
    (found) => found.size,
    () => undefined,
  );
  if (size === undefined) {
    refuse(response, requestId, 'NOT_FOUND', 'The report file is no longer kept');
    return true;
  }
  response.writeHead(200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${check.filename}"`,
    'content-length': size,
    'cache-control': 'private, no-store',
    'x-request-id': requestId,
  });
  if (method === 'HEAD') response.end();
  else await pipeline(createReadStream(path), response);
  return true;
}
