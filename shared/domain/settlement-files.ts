/**
 * The sponsor bank's settlement files (docs/network.md, "Settlement files"): `PUT
 * /network/v1/settlement-files/{date}` hands us the bank's record of one Bogotá day's settled
 * movements on our clients' accounts. The file is kept whole in the settlement files (S3 on AWS, the
 * data folder locally), the day's record points to it (a day sent again points to the new one:
 * replaced), and its reconciliation is queued (shared/domain/reconciliations.ts). The day's record is
 * due from then on, so a message lost after the commit is queued again by the sweeper.
 */
import type { SettlementFileAnswer, SettlementLine } from '../schemas/network';
import { colombiaDay, isCalendarDay } from '../calendar/colombia-days';
import type { NewRecords } from './clock';
import { invalidField } from './errors';

/** What a settlement file's body may weigh: under what one request may carry to its function (6 MB, base64). */
export const MAX_SETTLEMENT_FILE_BYTES = 4 * 1024 * 1024;

/** Where the settlement files are kept (the only objects of the files bucket their functions reach). */
export const SETTLEMENT_FILES_PREFIX = 'settlement-files/';

/** The file of a day's version: `settlement-files/<date>/<version>.ndjson`. */
export const settlementFileName = (date: string, version: string): string =>
  `${SETTLEMENT_FILES_PREFIX}${date}/${version}.ndjson`;

/** Where the files are kept: written whole once, read back a line at a time. */
export interface SettlementFiles {
  put(name: string, text: string): Promise<void>;
  /** The file's lines, in order (the empty last line of a file that ends with a line break left out). */
  lines(name: string): AsyncIterable<string>;
}

/** PENDING while its reconciliation runs; COMPLETED once every client's summary is written. */
export type SettlementFileStatus = 'PENDING' | 'COMPLETED';

/** A day's settlement file, as its record keeps it: the version its latest PUT made. */
export interface StoredSettlementFile {
  readonly date: string;
  /** The id of this PUT's file: each PUT of a day makes a new one, which replaces the last. */
  readonly version: string;
  /** Its name in the settlement files. */
  readonly file: string;
  readonly line_count: number;
  readonly status: SettlementFileStatus;
  readonly received_at: string;
  /** Runs started so far (each takes the file for the worker's timeout). */
  readonly runs?: number;
  readonly completed_at?: string;
  /** COMPLETED: the breaks found, every client's and those on accounts of none of our clients. */
  readonly break_count?: number;
  readonly unassigned_count?: number;
}

/** The reconciliation runs queue: `{"date"}` (functions/reconcile-settlement.ts). */
export interface ReconciliationQueue {
  run(date: string): Promise<void>;
}

export interface ReceiveSettlementFileDeps extends NewRecords {
  readonly files: Pick<SettlementFiles, 'put'>;
  readonly store: { receive(file: StoredSettlementFile): Promise<void> };
  readonly queue: ReconciliationQueue;
}

/**
 * The checks of a day a route names: a calendar day `YYYY-MM-DD`, not after today in Colombia (a day
 * to come has settled nothing yet). 400 on `date` otherwise.
 */
export function checkSettlementDay(date: string, now: string): void {
  if (!isCalendarDay(date)) throw invalidField('date', 'must be a calendar day YYYY-MM-DD');
  if (date > colombiaDay(now)) throw invalidField('date', 'must not be after today in Colombia (America/Bogota)');
}

/**
 * A day's file, received: kept, recorded as the day's (replacing the one before), and its
 * reconciliation queued. The lines are kept as validated, one JSON object a line.
 */
export async function receiveSettlementFile(
  deps: ReceiveSettlementFileDeps,
  date: string,
  lines: readonly SettlementLine[],
): Promise<SettlementFileAnswer> {
  const now = deps.clock.now();
  checkSettlementDay(date, now);
  const version = deps.ids.newId();
  const file = settlementFileName(date, version);
  await deps.files.put(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  await deps.store.receive({
    date,
    version,
    file,
    line_count: lines.length,
    status: 'PENDING',
    received_at: now,
    runs: 0,
  });
  await deps.queue.run(date);
  return { date, status: 'PENDING', line_count: lines.length, received_at: now };
}
