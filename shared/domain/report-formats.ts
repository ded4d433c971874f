/**
 * The formats of a report's file (docs/reconciliation.md, "Reports"): `csv`, RFC 4180 with the API's
 * own values, the default; `excel_es`, for a finance team that opens the file in Excel in Spanish:
 * the EXCEL_ES dialect (shared/domain/csv.ts), and the merchant's name beside each `customer_id`, so
 * that a row says who, not only an id.
 */
import type { ReportFormat } from '../schemas/reports';
import type { CustomerStore } from './customers';
import { EXCEL_ES, RFC_4180, type CsvColumn, type CsvDialect } from './csv';

/** The column of the merchant's name, written right after the record's `customer_id`. */
export const CUSTOMER_NAME_COLUMN: CsvColumn = { name: 'customer_name', path: ['customer_name'] };

/** How one report's file is written: its dialect, its columns, and its records as written. */
export interface FileFormat {
  readonly dialect: CsvDialect;
  readonly columns: readonly CsvColumn[];
  /** A page of the list's records, as the file writes them. */
  records(page: readonly object[]): Promise<readonly object[]>;
}

/**
 * The format of a report of `tenant` whose list has `columns`. For `excel_es`, each customer's name is
 * read once per file (the reads of a page together), and only from the tenant's own customers.
 */
export function fileFormat(
  format: ReportFormat | undefined,
  columns: readonly CsvColumn[],
  customers: Pick<CustomerStore, 'get'>,
  tenant: string,
): FileFormat {
  if (format !== 'excel_es') return { dialect: RFC_4180, columns, records: async (page) => page };
  const names = new Map<string, Promise<string>>();
  const nameOf = (id: string): Promise<string> => {
    let name = names.get(id);
    if (!name) {
      name = customers.get(id).then((customer) => (customer?.tenant === tenant ? customer.business_name : ''));
      names.set(id, name);
    }
    return name;
  };
  return {
    dialect: EXCEL_ES,
    columns: columns.flatMap((column) => (column.name === 'customer_id' ? [column, CUSTOMER_NAME_COLUMN] : [column])),
    records: (page) =>
      Promise.all(
        page.map(async (record) => {
          const id = (record as { readonly customer_id?: string }).customer_id;
          return id === undefined ? record : { ...record, customer_name: await nameOf(id) };
        }),
      ),
  };
}
