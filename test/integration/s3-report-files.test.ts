/**
 * The S3 adapters of the report files (shared/data/s3-report-files.ts, s3-report-downloads.ts) as
 * lib-storage and the SDK drive them, against a recording S3 endpoint on loopback (no S3 runs here):
 * a file smaller than one part is one PutObject; a larger one is a multipart upload of PART_BYTES
 * parts sent as they fill (the writer holds the part going up and one write more, never more),
 * completed with every part's ETag in order; a failed file is aborted; a download URL is a presigned
 * GetObject of the file that names its content type, its attachment and its expiry.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultAwsEnvironment } from '../../infra/local/dynamodb-local';
import { ENV } from '../../shared/runtime/config';

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly bytes: number;
  readonly body: string;
}

/** The call's S3 query parameters, less the SDK's own `x-id` (the operation's name). */
const operation = (call: Call): string =>
  [...call.query.keys()]
    .filter((name) => name !== 'x-id')
    .sort()
    .join('&');

let server: Server;
const calls: Call[] = [];
let s3: typeof import('../../shared/data/s3-report-files');
let downloads: typeof import('../../shared/data/s3-report-downloads');
/** Whether the endpoint refuses every UploadPart (a bucket policy that changed under a running report). */
let refuseParts = false;

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>${body}`;

function answer(request: IncomingMessage, body: Buffer) {
  const url = new URL(request.url ?? '/', 'http://s3');
  const call = {
    method: request.method ?? '',
    path: url.pathname,
    query: url.searchParams,
    bytes: Number(request.headers['x-amz-decoded-content-length'] ?? body.length),
    body: body.length < 10_000 ? body.toString() : '',
  };
  calls.push(call);
  if (call.method === 'POST' && url.searchParams.has('uploads')) {
    return {
      status: 200,
      body: xml('<InitiateMultipartUploadResult><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>'),
    };
  }
  if (call.method === 'PUT' && url.searchParams.has('partNumber') && refuseParts) {
    return { status: 403, body: xml('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>') };
  }
  if (call.method === 'PUT' && url.searchParams.has('partNumber')) {
    return { status: 200, headers: { etag: `"etag-${url.searchParams.get('partNumber')}"` }, body: '' };
  }
  if (call.method === 'POST' && url.searchParams.has('uploadId')) {
    return {
      status: 200,
      body: xml('<CompleteMultipartUploadResult><ETag>"whole"</ETag></CompleteMultipartUploadResult>'),
    };
  }
  if (call.method === 'PUT') return { status: 200, headers: { etag: '"one"' }, body: '' };
  if (call.method === 'DELETE') return { status: 204, body: '' };
  return { status: 400, body: '' };
}

beforeAll(async () => {
  defaultAwsEnvironment();
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { status, headers = {}, body } = answer(request, Buffer.concat(chunks));
      response.writeHead(status, { 'content-type': 'application/xml', ...headers });
      response.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  process.env[ENV.awsEndpoint] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env[ENV.reportBucketName] = 'report-files';
  s3 = await import('../../shared/data/s3-report-files');
  downloads = await import('../../shared/data/s3-report-downloads');
});
afterAll(() => {
  delete process.env[ENV.awsEndpoint];
  delete process.env[ENV.reportBucketName];
  server.close();
});
beforeEach(() => {
  calls.length = 0;
  refuseParts = false;
});

const NAME = 'reports/0b5e2a4c-1111-4222-8333-944455566677.csv';

test('a file smaller than one part is one PutObject of text/csv', async () => {
  const writer = await s3.s3ReportWriters.create(NAME);
  await writer.write('id,kind\r\n');
  await writer.write('a,PAYMENT\r\n');
  expect(calls).toEqual([]);
  await writer.close();
  expect(calls.map((c) => [c.method, c.path, c.bytes])).toEqual([['PUT', `/report-files/${NAME}`, 20]]);
});

test('a larger file goes up in parts as they fill, completed with their ETags in order', async () => {
  const writer = await s3.s3ReportWriters.create(NAME);
  const page = `${'x'.repeat(1023)}\n`.repeat(1024); // 1 MiB, a page of a large report
  for (let i = 0; i < 12; i += 1) {
    await writer.write(page);
    // Nothing is held past a part: the part going up and the page that followed it, at most.
    const sent = calls.filter((c) => c.query.has('partNumber')).reduce((sum, c) => sum + c.bytes, 0);
    expect((i + 1) * page.length - sent).toBeLessThanOrEqual(s3.PART_BYTES + page.length);
  }
  await writer.close();
  expect(calls.map((c) => [c.method, operation(c), c.bytes])).toEqual([
    ['POST', 'uploads', 0],
    ['PUT', 'partNumber&uploadId', 5 * 1024 * 1024],
    ['PUT', 'partNumber&uploadId', 5 * 1024 * 1024],
    ['PUT', 'partNumber&uploadId', 2 * 1024 * 1024],
    ['POST', 'uploadId', expect.any(Number)],
  ]);
  expect(calls.filter((c) => c.query.has('partNumber')).map((c) => c.query.get('partNumber'))).toEqual(['1', '2', '3']);
  const complete = calls.at(-1)!.body;
  expect(
    [...complete.matchAll(/<ETag>(?:&quot;|")?(etag-\d)(?:&quot;|")?<\/ETag><PartNumber>(\d)<\/PartNumber>/g)].map(
      (m) => [m[1], m[2]],
    ),
  ).toEqual([
    ['etag-1', '1'],
    ['etag-2', '2'],
    ['etag-3', '3'],
  ]);
});

test('a file given up before its first part is full makes no call', async () => {
  const writer = await s3.s3ReportWriters.create(NAME);
  await writer.write('x'.repeat(s3.PART_BYTES));
  await writer.abort();
  expect(calls).toEqual([]);
});

test('a file given up is aborted: no part stays billed, no object is made', async () => {
  const writer = await s3.s3ReportWriters.create(NAME);
  await writer.write('x'.repeat(s3.PART_BYTES + 1));
  await writer.abort();
  expect(calls.map((c) => [c.method, operation(c)])).toEqual([
    ['POST', 'uploads'],
    ['PUT', 'partNumber&uploadId'],
    ['DELETE', 'uploadId'],
  ]);
});

test('a download URL is a presigned GetObject of the file, as an attachment, until its expiry', async () => {
  const expiresAt = new Date(Date.now() + 15 * 60 * 1000).toISOString();
  const url = new URL(await downloads.s3ReportDownloads.downloadUrl(NAME, 'movements-2026-03-14.csv', expiresAt));
  expect(url.pathname).toBe(`/report-files/${NAME}`);
  expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
  expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeGreaterThanOrEqual(899);
  expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(900);
  expect(url.searchParams.get('response-content-type')).toBe('text/csv; charset=utf-8');
  expect(url.searchParams.get('response-content-disposition')).toBe('attachment; filename="movements-2026-03-14.csv"');
  expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  expect(calls).toEqual([]);
});

test('a part refused fails the file at its close, and the upload is aborted', async () => {
  refuseParts = true;
  const writer = await s3.s3ReportWriters.create(NAME);
  await writer.write('x'.repeat(s3.PART_BYTES + 1));
  await expect(writer.close()).rejects.toThrow(/Access Denied/);
  expect(calls.map((c) => [c.method, operation(c)])).toEqual([
    ['POST', 'uploads'],
    ['PUT', 'partNumber&uploadId'],
    ['DELETE', 'uploadId'],
  ]);
});
