/** Time and identity, injected so that rules can be tested with fixed values. */
import { randomUUID } from 'node:crypto';

export interface Clock {
  /** ISO 8601 UTC with milliseconds. */
  now(): string;
}

export interface IdGenerator {
  newId(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
export const uuidIds: IdGenerator = { newId: () => randomUUID() };

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
