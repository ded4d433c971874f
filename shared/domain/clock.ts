/** Time and identity, injected so that rules can be tested with fixed values. */
import { createHash, randomUUID } from 'node:crypto';

export interface Clock {
  /** ISO 8601 UTC with milliseconds. */
  now(): string;
}

export interface IdGenerator {
  newId(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
export const uuidIds: IdGenerator = { newId: () => randomUUID() };

/**
 * The id named by `name`: the same for the same name, wherever and however often it is computed, so
 * that work done twice finds what the first run made. UUID-shaped (version 8: custom), from a hash.
 */
export function uuidOf(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** How long to wait for another request's decision, reading again every `pollMs`. */
export interface DecisionWait {
  readonly maxMs: number;
  readonly pollMs: number;
}

/**
 * `current` read again every `pollMs` while `pending` holds, for `maxMs` at most: the last one read
 * (still pending when the wait ran out).
 */
export async function readWhile<T>(
  current: T,
  pending: (value: T) => boolean,
  read: () => Promise<T | undefined>,
  { maxMs, pollMs }: DecisionWait,
): Promise<T> {
  const deadline = Date.now() + maxMs;
  let value = current;
  while (pending(value) && Date.now() < deadline) {
    await new Promise((wake) => setTimeout(wake, pollMs));
    value = (await read()) ?? value;
  }
  return value;
}

/** What a rule that creates records is given: the time, and new ids. */
export interface NewRecords {
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** The fields a client's new record starts with: a new id, the client, created_at = updated_at = now. */
export function newRecord({ clock, ids }: NewRecords, tenant: string) {
  const now = clock.now();
  return { id: ids.newId(), tenant, created_at: now, updated_at: now };
}

/** The process's clock and random UUIDs: what every function gives the rules that create records. */
export const systemNewRecords: NewRecords = { clock: systemClock, ids: uuidIds };
