/**
 * A benchmark's calls to the API it started: a bearer token, a JSON body, and a thrown error for any
 * answer but a success (a benchmark measures what works, and stops on what does not).
 */

/** The fields of an answer a benchmark reads. */
export type Answer = Record<string, string>;

/** `method route` of the API at `baseUrl`, with `token` and `body`; the answer's JSON. */
export async function apiCall(
  baseUrl: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Answer> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as Answer;
}
