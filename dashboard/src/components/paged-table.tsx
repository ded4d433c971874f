/** A list of the API a page at a time: its table (or its refusal, or a line saying it is empty) and its pager. */
import type { ComponentChildren } from 'preact';
import { DataTable, type Column } from './data-table';
import { Pager } from './pager';
import { ListBody } from './ui';
import type { PageState } from './use-page';

export function PagedTable<T extends { readonly id: string }>(props: {
  readonly page: PageState<T>;
  readonly columns: readonly Column<T>[];
  /** The items, plural ("QR codes"); `one` when the singular is not that without its s. */
  readonly noun: string;
  readonly one?: string;
  /** What the table lists, said to screen readers; by default the items, newest first. */
  readonly caption?: string;
  /** What an empty list says: by default, that there is nothing to show. */
  readonly empty?: ComponentChildren;
}) {
  const { page, noun } = props;
  const caption = props.caption ?? `${noun.charAt(0).toUpperCase()}${noun.slice(1)}, newest first`;
  return (
    <>
      <ListBody page={page} empty={props.empty ?? `No ${noun} to show.`}>
        {(items) => <DataTable caption={caption} items={items} columns={props.columns} />}
      </ListBody>
      <Pager page={page} noun={noun} {...(props.one ? { one: props.one } : {})} />
    </>
  );
}
