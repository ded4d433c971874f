/**
 * How the sweeper's runs share the shards of the index of due work (shared/data/due-work.ts): at
 * every interval, k runs in a row read every shard once, no shard is read later than a minute (or a
 * run, where runs are rarer) after its last read, and runs as frequent as the local tests' read no
 * more shards than every run read before the index had 32. The deployed schedule reads them all at
 * every run.
 */
import { workerOf } from '../../functions/workers';
import {
  DUE_SHARDS,
  MIN_SHARDS_PER_SWEEP,
  shardsOfTurn,
  SWEEP_ROUND_MS,
  sweepsPerRound,
} from '../../shared/data/due-work';
import { DEFAULT_SWEEP_INTERVAL_MS, readSweepIntervalMs } from '../../shared/runtime/config';

const INTERVALS = [300, 500, 1_000, 15_000, 15_001, 20_000, 30_000, 30_001, 60_000, 120_000];

it('the index has 32 shards: at 14 write units a payment, 1,000 payments a second with twice that to spare', () => {
  expect(DUE_SHARDS).toBe(32);
  const capPerSecond = (DUE_SHARDS * 1_000) / 14;
  expect(capPerSecond).toBeGreaterThanOrEqual(2 * 1_000);
});

it.each(INTERVALS)(
  'runs %i ms apart read every shard once in a round, each shard at least once a minute',
  (interval) => {
    const sweeps = sweepsPerRound(interval);
    // Whichever turn a round starts at (the counter goes on across rounds and processes).
    for (const start of [0, 1, 5, 1_000_003]) {
      const read = Array.from({ length: sweeps }, (_, i) => shardsOfTurn(start + i, sweeps));
      expect(read.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: DUE_SHARDS }, (_, shard) => shard));
      for (const shards of read) expect(shards.length).toBeGreaterThanOrEqual(MIN_SHARDS_PER_SWEEP);
    }
    // A shard waits at most a round between two reads: a minute, or one run where runs are rarer.
    expect(sweeps * interval).toBeLessThanOrEqual(Math.max(SWEEP_ROUND_MS, interval));
  },
);

it('the local tests (300 ms, 500 ms, 1 s): 8 shards a run, as every run read before, every shard within 4 runs', () => {
  for (const interval of [300, 500, 1_000]) {
    expect(sweepsPerRound(interval)).toBe(4);
    expect(shardsOfTurn(0, 4)).toHaveLength(8);
  }
  expect(sweepsPerRound(20_000)).toBe(2);
});

it('the deployed schedule, every minute, reads every shard at every run', () => {
  expect(workerOf('sweep-stranded-work').source).toEqual({ schedule: 'rate(1 minute)' });
  // The stack sets no SWEEP_INTERVAL_MS: the sweeper reads the default, the schedule's minute.
  expect(readSweepIntervalMs({})).toBe(DEFAULT_SWEEP_INTERVAL_MS);
  expect(DEFAULT_SWEEP_INTERVAL_MS).toBe(60_000);
  expect(sweepsPerRound(DEFAULT_SWEEP_INTERVAL_MS)).toBe(1);
  expect(shardsOfTurn(7, 1)).toHaveLength(DUE_SHARDS);
});
