/** A list of the API a page at a time: its table (or its refusal, or a line saying it is empty) and its pager. */
import type { ComponentChildren } from 'preact';
import { capitalized, t } from '../i18n';
import { DataTable, type Column } from './data-table';
import { nounOf, Pager, type Noun } from './pager';
import { ListBody } from './ui';
import type { PageState } from './use-page';

export function PagedTable<T extends { readonly id: string }>(props: {
  readonly page: PageState<T>;
  readonly columns: readonly Column<T>[];
  /** What the list holds, in the catalogs' nouns ("payments"). */
  readonly noun: Noun;
  /** What the table lists, said to screen readers; by default the items, newest first. */
  readonly caption?: string;
  /** What an empty list says: by default, that there is nothing to show. */
  readonly empty?: ComponentChildren;
  /** On a phone, a few lines per row (DataTable). */
  readonly compact?: boolean;
}) {
  const { page, noun } = props;
  const caption = props.caption ?? t('list.caption', { items: capitalized(nounOf(noun)) });
  return (
    <>
      <ListBody page={page} empty={props.empty ?? t('list.empty', { items: nounOf(noun) })}>
        {(items) => <DataTable caption={caption} items={items} columns={props.columns} compact={props.compact} />}
      </ListBody>
      <Pager page={page} noun={noun} />
    </>
  );
}
