/**
 * The body of a route that declares one, through the route's whole Middy chain (httpHandler) and
 * @middy/http-json-body-parser itself: JSON only, parsed before validation, refused in the API's own
 * codes. The route is PATCH /v1/customers/{id}'s body ({"status": ...}), echoed back once valid.
 */
import { httpHandler } from '../../shared/http/handler';
import type { ApiContext, ApiEvent } from '../../shared/http/middlewares';
import type { HttpResponse } from '../../shared/http/responses';
import { updateCustomerRequest } from '../../shared/schemas/generated/customers';

const route = httpHandler({ name: 'jsonBodyProbe', body: updateCustomerRequest, handle: async ({ body }) => body });

type Sent = { contentType?: string; body?: string; isBase64Encoded?: boolean };

/** What the client receives for a PATCH with this content type and body. */
function send({ contentType, body, isBase64Encoded = false }: Sent): Promise<HttpResponse> {
  const event = {
    version: '2.0',
    routeKey: 'PATCH /v1/customers/{id}',
    rawPath: '/v1/customers/probe',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    requestContext: {
      requestId: 'req-1',
      http: { method: 'PATCH' },
      authorizer: { jwt: { claims: { client_id: 'tenant-a' }, scopes: [] } },
    },
    ...(body === undefined ? {} : { body }),
    isBase64Encoded,
  } as unknown as ApiEvent;
  return route(event, { awsRequestId: 'aws-1', functionName: 'probe' } as ApiContext);
}

const answerOf = (response: HttpResponse) => {
  const { status, code, detail, errors } = JSON.parse(response.body) as Record<string, unknown>;
  return { statusCode: response.statusCode, body: { status, code, detail, errors } };
};
const parsed = (status: string) => ({
  statusCode: 200,
  body: { status, code: undefined, detail: undefined, errors: undefined },
});
const refused = (status: number, code: string, detail: string, errors?: unknown) => ({
  statusCode: status,
  body: { status, code, detail, errors },
});

const ACTIVE = '{"status":"ACTIVE"}';

test.each([
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=utf-8',
  'application/merge-patch+json',
  'application/problem+json',
  'application/vnd.api+json',
])('%s is parsed for the validation', async (contentType) => {
  expect(answerOf(await send({ contentType, body: ACTIVE }))).toEqual(parsed('ACTIVE'));
});

// Media types are case-insensitive, and HTTP allows white space around a parameter's `;` (RFC 9110,
// 8.3): the parser takes the first; the second needs jsonMediaType before it (shared/http/middlewares.ts).
test.each([
  'Application/JSON',
  'APPLICATION/JSON; Charset=UTF-8',
  'application/json ; charset=utf-8',
  'application/json\t;charset=utf-8',
  'application/json ;charset=utf-8 ',
  'application/problem+json ; charset=utf-8',
])('%s is JSON too', async (contentType) => {
  expect(answerOf(await send({ contentType, body: ACTIVE }))).toEqual(parsed('ACTIVE'));
});

test('a base64 body (as API Gateway passes some) is decoded, then parsed', async () => {
  const body = Buffer.from('{"status":"INACTIVE"}', 'utf8').toString('base64');
  expect(answerOf(await send({ contentType: 'application/json', body, isBase64Encoded: true }))).toEqual(
    parsed('INACTIVE'),
  );
});

test.each([
  ['text/plain', 'hello'],
  [undefined, ACTIVE],
  ['', ACTIVE],
  ['application/jsonp', ACTIVE],
  ['application/json-seq', ACTIVE],
  ['text/json', ACTIVE],
  ['application/x-www-form-urlencoded', 'status=ACTIVE'],
  [undefined, undefined],
  ['text/plain', undefined],
])('content type %p is 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, body) => {
  expect(answerOf(await send({ contentType, body }))).toEqual(
    refused(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json'),
  );
});

test.each([
  [undefined, false],
  ['', false],
  ['', true],
])('no body (%p, base64 %p) is 400 MALFORMED_JSON', async (body, isBase64Encoded) => {
  expect(answerOf(await send({ contentType: 'application/json', body, isBase64Encoded }))).toEqual(
    refused(400, 'MALFORMED_JSON', 'The request needs a JSON body'),
  );
});

test.each(['{"status": ACTIVE', '  ', '{"status":"ACTIVE"}x'])(
  'broken JSON (%p) is 400 MALFORMED_JSON, and the answer does not echo the body',
  async (body) => {
    const response = await send({ contentType: 'application/json', body });
    expect(answerOf(response)).toEqual(refused(400, 'MALFORMED_JSON', 'The body could not be parsed as JSON'));
    expect(response.body).not.toContain('ACTIVE');
  },
);

// The parser refuses these keys before the validation sees them; the answer is the validation's own
// for a field the schema does not have.
test.each([
  ['__proto__', '{"status":"ACTIVE","__proto__":{"status":"INACTIVE"}}'],
  ['constructor', '{"status":"ACTIVE","constructor":{"prototype":{}}}'],
])('a %s key is 400 VALIDATION_FAILED, as any unknown field', async (key, body) => {
  const unknownField = await send({ contentType: 'application/json', body: body.replace(key, 'unknown') });
  const forbiddenKey = await send({ contentType: 'application/json', body });
  expect(answerOf(forbiddenKey)).toEqual(
    refused(400, 'VALIDATION_FAILED', 'The body has 1 invalid field(s)', [{ field: key, message: 'is not allowed' }]),
  );
  expect(forbiddenKey.body).toBe(unknownField.body.replace('unknown', key));
});
