/**
 * What a log line keeps of an error: an allow-list, not a deny-list. An AWS SDK error carries what
 * DynamoDB sent back: a ConditionalCheckFailedException its `Item`, a TransactionCanceledException
 * its `CancellationReasons[].Item`, any of them the `$response` with its body: images of items that
 * hold people's names, documents and account numbers. Written whole, they would be in the logs. So
 * every error the functions log (shared/http/logger.ts) and the local runtime prints goes through
 * `loggableError`, which keeps the name, message, code and request id, where the code was thrown
 * (location, stack, the cause reduced the same way) and our own errors' safe fields, and nothing else.
 */

type Fields = Record<string, unknown>;

/** An Error of this realm or another (a Node system error seen from a Jest module, for one). */
export const isError = (value: unknown): value is Error =>
  value instanceof Error || Object.prototype.toString.call(value) === '[object Error]';

/** `file:line` of the first stack frame with a location. */
function codeLocation(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n')) {
    const frame = /\(([^()]*?):(\d+?):(\d+?)\)\\?$/.exec(line);
    if (frame) return `${frame[1]}:${Number(frame[2])}`;
  }
  return '';
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/**
 * The error's allowed fields, in the order Powertools' Logger wrote them (name, location, message,
 * stack, cause, then the rest): `code` (ours, or Node's), `request_id` (the AWS request's), `kind`
 * and `retry_after_seconds` (an AppError's and a RetryLater's). A cause that is no Error is kept only
 * as a string. Undefined fields are left out of the line.
 */
export function loggableError(error: Error): Fields {
  const fields = error as Error & Fields;
  const { cause } = fields;
  const metadata = fields['$metadata'] as { readonly requestId?: unknown } | undefined;
  return {
    name: error.name,
    location: codeLocation(error.stack),
    message: error.message,
    stack: error.stack,
    cause: isError(cause) ? loggableError(cause) : text(cause),
    code: text(fields['code']),
    request_id: text(metadata?.requestId) ?? text(fields['requestId']),
    kind: text(fields['kind']),
    retry_after_seconds: typeof fields['retryAfterSeconds'] === 'number' ? fields['retryAfterSeconds'] : undefined,
  };
}

/** For a printed line (the local runtime's console): an error reduced as above, anything else as it is. */
export const loggable = (value: unknown): unknown => (isError(value) ? loggableError(value) : value);
