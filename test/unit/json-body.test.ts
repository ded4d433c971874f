/** The body of a route that declares one: JSON only, parsed before validation, refused in the API's own codes. */
import type { Request } from '@middy/core';
import { jsonBody, type ApiContext, type ApiEvent } from '../../shared/http/middlewares';
import { errorResponse, type HttpResponse } from '../../shared/http/responses';

type Sent = { contentType?: string; body?: string; isBase64Encoded?: boolean };

/** Runs the middleware on a request; what the route would then see, or the answer it gives instead. */
function receive({ contentType, body, isBase64Encoded = false }: Sent): { body?: unknown; answer?: HttpResponse } {
  const event = {
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    body,
    isBase64Encoded,
  } as unknown as ApiEvent;
  const before = jsonBody().before as (request: Request<ApiEvent, HttpResponse, Error, ApiContext>) => void;
  try {
    before({ event } as Request<ApiEvent, HttpResponse, Error, ApiContext>);
    return { body: event.body };
  } catch (error) {
    return { answer: errorResponse(error, 'req-1') };
  }
}

const problemOf = (answer?: HttpResponse) => {
  const { status, code, detail } = JSON.parse(answer?.body ?? '{}') as Record<string, unknown>;
  return { status, code, detail };
};

test.each([
  ['application/json', '{"a":1}'],
  ['application/json; charset=utf-8', '{"a":1}'],
  ['application/merge-patch+json', '{"a":1}'],
])('%s is parsed for the validation', (contentType, body) => {
  expect(receive({ contentType, body })).toEqual({ body: { a: 1 } });
});

test('a base64 body (as API Gateway passes some) is decoded, then parsed', () => {
  const body = Buffer.from('{"name":"Tienda Ñandú"}', 'utf8').toString('base64');
  expect(receive({ contentType: 'application/json', body, isBase64Encoded: true })).toEqual({
    body: { name: 'Tienda Ñandú' },
  });
});

test.each([
  ['text/plain', 'hello'],
  [undefined, '{"a":1}'],
  ['application/jsonp', '{"a":1}'],
  [undefined, undefined],
])('content type %s is 415 UNSUPPORTED_MEDIA_TYPE', (contentType, body) => {
  expect(problemOf(receive({ contentType, body }).answer)).toEqual({
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    detail: 'Send the body as application/json',
  });
});

test.each([undefined, ''])('no body (%p) is 400 MALFORMED_JSON', (body) => {
  expect(problemOf(receive({ contentType: 'application/json', body }).answer)).toEqual({
    status: 400,
    code: 'MALFORMED_JSON',
    detail: 'The request needs a JSON body',
  });
});

test('broken JSON is 400 MALFORMED_JSON, and the answer does not echo the body', () => {
  const { answer } = receive({ contentType: 'application/json', body: '{"type": BUSINESS' });
  expect(problemOf(answer)).toEqual({
    status: 400,
    code: 'MALFORMED_JSON',
    detail: 'The body could not be parsed as JSON',
  });
  expect(answer?.body).not.toContain('BUSINESS');
});
