/**
 * Report runs through the API, as a client does: polling GET /v1/reports/{id} until the run has
 * finished (a bounded number of times), and reading the CSV back with csv-parse, an independent
 * RFC 4180 parser, into rows keyed by the header row.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import type { ApiAnswer, TestApi } from './local-api';

/** The report once it is no longer PENDING. */
export async function finishedReport(
  api: Pick<TestApi, 'request'>,
  token: string,
  reportId: string,
  { attempts = 150, intervalMs = 200 } = {},
): Promise<ApiAnswer> {
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const read = await api.request('GET', `/v1/reports/${reportId}`, { token });
    if (read.status !== 200) throw new Error(`Report ${reportId} read failed: ${read.status} ${read.text}`);
    if (read.body.status !== 'PENDING') return read;
    await sleep(intervalMs);
  }
  throw new Error(`Report ${reportId} still PENDING after ${attempts} reads`);
}

export interface ParsedCsv {
  readonly header: string[];
  readonly rows: Record<string, string>[];
}

/** A CSV file's header row and its records, each keyed by the header (csv-parse, strict about quotes and columns). */
export function parseCsv(text: string): ParsedCsv {
  const records = parse(text, { relax_quotes: false, relax_column_count: false }) as string[][];
  const [header = [], ...rest] = records;
  return { header, rows: rest.map((fields) => Object.fromEntries(header.map((name, i) => [name, fields[i]!]))) };
}

/**
 * A record of the API as the report's columns name its fields: nested fields joined with `_`. Written
 * here apart from the worker's code, so the test compares the CSV with what the list answers.
 */
export function flattened(record: Record<string, unknown>, prefix = ''): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).flatMap(([name, value]) =>
      value !== null && typeof value === 'object'
        ? Object.entries(flattened(value as Record<string, unknown>, `${prefix}${name}_`))
        : [[`${prefix}${name}`, String(value)]],
    ),
  );
}

/**
 * The columns a report masks unless it reveals them (docs/privacy.md): the other side's document
 * and account numbers, named here apart from the worker's code.
 */
export const PERSONAL_COLUMNS = ['counterparty_owner_identification_number', 'counterparty_account_account_number'];

/** `1020304050` as `****4050`. */
export const lastFour = (value: string): string => `****${value.length > 4 ? value.slice(-4) : ''}`;

/**
 * The row a record of the list should be in a CSV of `header`: its fields, and empty fields for those
 * it has not; a person's numbers masked unless the report `reveal`s them.
 */
export const expectedRow = (
  header: readonly string[],
  record: Record<string, unknown>,
  { reveal = false } = {},
): Record<string, string> => {
  const flat = flattened(record);
  const shown = (name: string, value: string) =>
    !reveal && value !== '' && PERSONAL_COLUMNS.includes(name) ? lastFour(value) : value;
  return Object.fromEntries(header.map((name) => [name, asSpreadsheetText(shown(name, flat[name] ?? ''))]));
};

/**
 * A value as the report must write it: behind an apostrophe where a spreadsheet would take it for a
 * formula (a leading =, +, -, @, tab or carriage return), unless it is a number as the API writes one.
 */
const asSpreadsheetText = (value: string): string =>
  /^[=+\-@\t\r]/.test(value) && !/^-?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
