/**
 * Reads that do not depend on each other, sent together: one round trip to the table instead of one
 * each, which on AWS is what a request's latency grows with. Each outcome is then taken when the
 * caller checks it, in the caller's order, so a request gets the same answer whichever read finished
 * first (and a read the answer never needs may fail unseen).
 */
export async function readTogether<T extends readonly unknown[]>(
  ...reads: { readonly [K in keyof T]: Promise<T[K]> }
): Promise<{ readonly [K in keyof T]: () => T[K] }> {
  const outcomes = await Promise.all(
    reads.map((read: Promise<unknown>) =>
      read.then(
        (value) => () => value,
        (error: unknown) => () => {
          throw error;
        },
      ),
    ),
  );
  return outcomes as unknown as { readonly [K in keyof T]: () => T[K] };
}
