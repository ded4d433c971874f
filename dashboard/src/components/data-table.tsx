/**
 * A table of records, one row each, described by its columns: every list of the dashboard is one.
 * On a narrow screen each row becomes a card, each cell under its column's name (styles.css), or, for
 * a long list a person scrolls through (`compact`: the payments), a few lines without the names, the
 * amount first: the roles are written out, since a table laid out otherwise loses them in some
 * browsers, and a screen reader still names each cell by its column.
 */
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
  /** On a phone, a few lines per row rather than a line per cell. */
  readonly compact?: boolean;
}) {
  return (
    <table class={props.compact ? 'data compact' : 'data'} role="table">
      <caption class="visually-hidden">{props.caption}</caption>
      <thead role="rowgroup">
        <tr role="row">
          {props.columns.map((column) => (
            <th key={column.header} role="columnheader" scope="col" class={column.numeric ? 'number' : undefined}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody role="rowgroup">
        {props.items.map((item) => (
          <tr key={item.id} role="row">
            {props.columns.map((column) => (
              <td
                key={column.header}
                role="cell"
                data-label={column.header}
                class={column.numeric ? 'number' : undefined}
              >
                {/* One box for the value: on a phone the cell is a grid of its name and its value. */}
                <span>{column.cell(item)}</span>
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
