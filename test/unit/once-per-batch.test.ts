/**
 * oncePerBatch (shared/domain/subscribers.ts): the dispatcher's reader of a client's webhooks for one
 * stream batch. A client's webhooks are read once for all its events of the batch, each client apart,
 * and a failed read is not kept: the next event of the batch reads again.
 */
import type { StoredWebhook } from '../../shared/domain/webhooks';
import { oncePerBatch, type SubscriberReader } from '../../shared/domain/subscribers';

/** A reader that counts its reads by client, failing the first `failures` of them. */
function countingReader(failures = 0): SubscriberReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async webhooksOf(tenant) {
      reads.push(tenant);
      if (reads.length <= failures) throw new Error('DynamoDB unavailable');
      return [{ id: `hook-of-${tenant}` } as unknown as StoredWebhook];
    },
  };
}

test("a client's webhooks are read once for every event of the batch, each client apart", async () => {
  const reader = countingReader();
  const batch = oncePerBatch(reader);
  const answers = await Promise.all(['a', 'a', 'b', 'a', 'b'].map((tenant) => batch.webhooksOf(tenant)));
  expect(reader.reads).toEqual(['a', 'b']);
  expect(answers.map((hooks) => hooks[0]!.id)).toEqual([
    'hook-of-a',
    'hook-of-a',
    'hook-of-b',
    'hook-of-a',
    'hook-of-b',
  ]);
  // A new batch reads again: nothing is kept from one batch to the next.
  await oncePerBatch(reader).webhooksOf('a');
  expect(reader.reads).toEqual(['a', 'b', 'a']);
});

test('a failed read is not kept: the next event of the batch reads again', async () => {
  const reader = countingReader(1);
  const batch = oncePerBatch(reader);
  await expect(batch.webhooksOf('a')).rejects.toThrow('DynamoDB unavailable');
  await expect(batch.webhooksOf('a')).resolves.toEqual([{ id: 'hook-of-a' }]);
  expect(reader.reads).toEqual(['a', 'a']);
});
