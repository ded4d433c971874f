/** A table of records, one row each, described by its columns: every list of the dashboard is one. */
import type { ComponentChildren } from 'preact';

export interface Column<T> {
  readonly header: string;
  /** Right-aligned, with figures of one width: amounts and counts. */
  readonly numeric?: boolean;
  readonly cell: (item: T) => ComponentChildren;
}

export function DataTable<T extends { readonly id: string }>(props: {
  /** Said to screen readers: what the table lists, in what order. */
  readonly caption: string;
  readonly columns: readonly Column<T>[];
  readonly items: readonly T[];
}) {
  return (
    <table>
      <caption class="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th key={column.header} scope="col" class={column.numeric ? 'number' : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.items.map((item) => (
          <tr key={item.id}>
            {props.columns.map((column) => (
              <td key={column.header} class={column.numeric ? 'number' : undefined}>
                {column.cell(item)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
