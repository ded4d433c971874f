/**
 * CSV of records as the API answers them (docs/reconciliation.md, "Reports"): one column per leaf
 * field of the record's JSON schema, named by its path joined with `_` (an `amount` of `{"value",
 * "currency"}` gives `amount_value` and `amount_currency`), in the schema's order, so a report's
 * columns follow its list's answer and change only with it. Written as RFC 4180 writes it, or as a
 * spreadsheet in Spanish opens it (EXCEL_ES).
 */

import { colombiaWallClock } from '../calendar/colombia-days';
import { maskNumber } from './masking';

/** A column: its header, the path of the field it holds in the public record, and what the field is. */
export interface CsvColumn {
  readonly name: string;
  readonly path: readonly string[];
  /** A money value (`-120.50`) or an instant (RFC 3339): written as the dialect writes them. */
  readonly kind?: 'money' | 'instant';
}

/** How a file writes its fields. */
export interface CsvDialect {
  readonly separator: string;
  /** What the file starts with. */
  readonly preamble: string;
  /** A number as the API writes one, which a spreadsheet must read as a number, never a formula. */
  readonly plainNumber: RegExp;
  money(value: string): string;
  instant(value: string): string;
}

/** RFC 4180, with the API's own values: the reports' default. */
export const RFC_4180: CsvDialect = {
  separator: ',',
  preamble: '',
  plainNumber: /^-?\d+(\.\d+)?$/,
  money: (value) => value,
  instant: (value) => value,
};

/**
 * As Excel opens a file in Spanish (es-CO): fields split by semicolons (its list separator, the comma
 * being its decimal mark), money with a decimal comma (`-120,50`), instants on Bogotá's wall clock
 * (`2026-03-14 09:30:00`, read as a date and time), and a UTF-8 byte order mark first, without which
 * Excel reads "café" as "cafÃ©".
 */
export const EXCEL_ES: CsvDialect = {
  separator: ';',
  preamble: '\uFEFF',
  plainNumber: /^-?\d+(,\d+)?$/,
  money: (value) => value.replace('.', ','),
  instant: (value) => colombiaWallClock(value),
};

interface ObjectSchema {
  readonly type?: unknown;
  readonly format?: unknown;
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
    if (nested.properties) return columnsOf(nested, fieldPath);
    const kind = money && name === 'value' ? 'money' : nested.format === 'date-time' ? 'instant' : undefined;
    return [{ name: fieldPath.join('_'), path: fieldPath, ...(kind ? { kind } : {}) }];
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

/**
 * One field as RFC 4180 writes it: quoted, with its quotes doubled, when it holds a quote, the
 * separator, a carriage return or a line feed; as it is otherwise. A field that a spreadsheet would
 * take for a formula gets a leading apostrophe inside quotes, which spreadsheets show as text
 * (OWASP's rule); plain numbers are left as they are.
 */
export const csvField = (value: string, dialect: CsvDialect = RFC_4180): string => {
  if (FORMULA_START.test(value) && !dialect.plainNumber.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  const special = /["\r\n]/.test(value) || value.includes(dialect.separator);
  return special ? `"${value.replaceAll('"', '""')}"` : value;
};

/** One record (CRLF-terminated, as RFC 4180 asks). */
export const csvLine = (fields: readonly string[], dialect: CsvDialect = RFC_4180): string =>
  `${fields.map((field) => csvField(field, dialect)).join(dialect.separator)}\r\n`;

/** The start of a file of `columns`: the dialect's preamble, then the header row. */
export const csvHeader = (columns: readonly CsvColumn[], dialect: CsvDialect = RFC_4180): string =>
  dialect.preamble +
  csvLine(
    columns.map((column) => column.name),
    dialect,
  );

/**
 * `records` as lines of `columns`, each column `masked` names written as maskNumber writes it
 * (`****4050`: a person's document and account numbers, docs/privacy.md), money and instants as the
 * dialect writes them, an empty field left empty.
 */
export const csvRows = (
  columns: readonly CsvColumn[],
  records: readonly unknown[],
  masked: ReadonlySet<string> = new Set(),
  dialect: CsvDialect = RFC_4180,
): string =>
  records
    .map((record) =>
      csvLine(
        columns.map((column) => {
          const value = valueAt(record, column.path);
          if (value === '') return value;
          if (masked.has(column.name)) return maskNumber(value);
          if (column.kind === 'money') return dialect.money(value);
          return column.kind === 'instant' ? dialect.instant(value) : value;
        }),
        dialect,
      ),
    )
    .join('');
