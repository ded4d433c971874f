/**
 * CSV as RFC 4180 writes it, of records as the API answers them (docs/reconciliation.md, "Reports"):
 * one column per leaf field of the record's JSON schema, named by its path joined with `_` (an
 * `amount` of `{"value", "currency"}` gives `amount_value` and `amount_currency`), in the schema's
 * order, so a report's columns follow its list's answer and change only with it.
 */

import { maskNumber } from './masking';

/** A column: its header, and the path of the field it holds in the public record. */
export interface CsvColumn {
  readonly name: string;
  readonly path: readonly string[];
}

interface ObjectSchema {
  readonly type?: unknown;
  readonly properties?: Readonly<Record<string, unknown>>;
}

/**
 * The columns of records of `schema`: every field whose schema has no properties of its own is one
 * column; a nested object's fields are columns under its name. Money comes value first, as people
 * read it.
 */
export function columnsOf(schema: ObjectSchema, path: readonly string[] = []): CsvColumn[] {
  const properties = Object.entries(schema.properties ?? {});
  const names = properties.map(([name]) => name);
  const money = names.length === 2 && names.includes('value') && names.includes('currency');
  const ordered = money ? [...properties].sort(([a]) => (a === 'value' ? -1 : 1)) : properties;
  return ordered.flatMap(([name, field]) => {
    const nested = field as ObjectSchema;
    const fieldPath = [...path, name];
    return nested.properties ? columnsOf(nested, fieldPath) : [{ name: fieldPath.join('_'), path: fieldPath }];
  });
}

/** The value at `path` in `record`, as text: empty when the record has no such field. */
function valueAt(record: unknown, path: readonly string[]): string {
  let value: unknown = record;
  for (const name of path) value = (value as Record<string, unknown> | undefined)?.[name];
  return value === undefined || value === null ? '' : String(value);
}

/**
 * What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"): a payer's description
 * such as `=HYPERLINK(...)` would run in the finance team's spreadsheet that opens the report.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A number as the API writes one (`-120.50`): a spreadsheet reads it as the number it is, never a formula. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * One field as RFC 4180 writes it: quoted, with its quotes doubled, when it holds a quote, a comma,
 * a carriage return or a line feed; as it is otherwise. A field that a spreadsheet would take for a
 * formula gets a leading apostrophe inside quotes, which spreadsheets show as text (OWASP's rule);
 * plain numbers are left as they are.
 */
export const csvField = (value: string): string => {
  if (FORMULA_START.test(value) && !PLAIN_NUMBER.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
};

/** One record (CRLF-terminated, as RFC 4180 asks). */
export const csvLine = (fields: readonly string[]): string => `${fields.map(csvField).join(',')}\r\n`;

/** The header row of `columns`. */
export const csvHeader = (columns: readonly CsvColumn[]): string => csvLine(columns.map((column) => column.name));

/**
 * `records` as lines of `columns`, each column `masked` names written as maskNumber writes it
 * (`****4050`: a person's document and account numbers, docs/privacy.md), an empty field left empty.
 */
export const csvRows = (
  columns: readonly CsvColumn[],
  records: readonly unknown[],
  masked: ReadonlySet<string> = new Set(),
): string =>
  records
    .map((record) =>
      csvLine(
        columns.map((column) => {
          const value = valueAt(record, column.path);
          return value !== '' && masked.has(column.name) ? maskNumber(value) : value;
        }),
      ),
    )
    .join('');
