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
