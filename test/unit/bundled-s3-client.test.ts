/**
 * S3's client as the functions that touch files carry it: built with their options (the event
 * streams replaced by shared/runtime/no-event-streams.ts, the errors our code does not tell apart
 * left unregistered by bundle-rewrites.ts) and run as Lambda runs a bundle, in a process of its own,
 * against a recording S3 endpoint on loopback (no S3 runs here). It is created, writes with the
 * checksums Node's own hashes compute (the pure-JavaScript ones are left out), reads back, and an S3
 * error reaches the code with its name and status; an operation that streams events fails, saying why.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runBundledProbe } from '../support/bundled-probe';

const PROBE = `
import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException, SelectObjectContentCommand } from '@aws-sdk/client-s3';
const s3 = new S3Client({ endpoint: process.env.PROBE_ENDPOINT, region: 'us-east-1', forcePathStyle: true });
const Body = 'id,amount\\n1,100\\n';
await s3.send(new PutObjectCommand({ Bucket: 'files', Key: 'a.csv', Body, ChecksumAlgorithm: 'SHA256' }));
await s3.send(new PutObjectCommand({ Bucket: 'files', Key: 'b.csv', Body, ChecksumAlgorithm: 'SHA1' }));
const read = await s3.send(new GetObjectCommand({ Bucket: 'files', Key: 'a.csv' }));
const body = await read.Body.transformToString();
const refused = await s3.send(new GetObjectCommand({ Bucket: 'files', Key: 'secret.csv' })).catch((error) => ({
  name: error.name, status: error.$metadata.httpStatusCode, base: error instanceof S3ServiceException,
}));
const selecting = await s3.send(new SelectObjectContentCommand({
  Bucket: 'files', Key: 'a.csv', Expression: 'select * from s3object', ExpressionType: 'SQL',
  InputSerialization: { CSV: {} }, OutputSerialization: { CSV: {} },
})).then(() => 'streamed', (error) => error.message);
console.log(JSON.stringify({ body, refused, selecting }));
`;

const stored = new Map<string, Buffer>();
/** The checksum header of each write, by key. */
const checksums = new Map<string, string | undefined>();
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const key = new URL(request.url ?? '/', 'http://s3').pathname;
      if (request.method === 'PUT') {
        stored.set(key, Buffer.concat(chunks));
        const header = Object.keys(request.headers).find((name) => name.startsWith('x-amz-checksum-'));
        checksums.set(key, header && `${header}: ${String(request.headers[header])}`);
        response.writeHead(200, { etag: '"one"' }).end();
      } else if (stored.has(key)) {
        response.writeHead(200, { 'content-type': 'text/csv' }).end(stored.get(key));
      } else {
        response
          .writeHead(403, { 'content-type': 'application/xml' })
          .end('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});

afterAll(() => server.close());

test('the bundled S3 client, without event streams or JavaScript hashes, writes, reads and tells an error by its name', async () => {
  const { port } = server.address() as AddressInfo;
  const { code, output } = await runBundledProbe(PROBE, { PROBE_ENDPOINT: `http://127.0.0.1:${port}` });
  expect(code).not.toContain('EventStreamCodec');
  // Sha1Js's and Sha256Js's round constants: the fallbacks are left out.
  expect(code).not.toMatch(/1518500249|0x5a827999|1116352408|0x428a2f98/i);
  expect(output).toEqual({
    body: 'id,amount\n1,100\n',
    refused: { name: 'AccessDenied', status: 403, base: true },
    // The one operation of S3 that streams events says why it cannot.
    selecting: expect.stringMatching(
      /^Event streams are left out of the bundles \(shared\/runtime\/no-event-streams\.ts\)/,
    ),
  });
  const digest = (algorithm: string) => createHash(algorithm).update('id,amount\n1,100\n').digest('base64');
  expect(Object.fromEntries(checksums)).toEqual({
    '/files/a.csv': `x-amz-checksum-sha256: ${digest('sha256')}`,
    '/files/b.csv': `x-amz-checksum-sha1: ${digest('sha1')}`,
  });
});
