/** Where a list is in its walk, and the way to the pages before and after. */
import { t, type MessageKey } from '../i18n';
import type { PageState } from './use-page';

/** What a list holds, named in the catalogs as `noun.<name>.many` and `noun.<name>.one`. */
type NounOf<K> = K extends `noun.${infer N}.many` ? N : never;
export type Noun = NounOf<MessageKey>;

/** The items of a list in the language of the moment, one or many. */
export const nounOf = (noun: Noun, count = 2): string =>
  t(count === 1 ? (`noun.${noun}.one` as MessageKey) : (`noun.${noun}.many` as MessageKey));

export function Pager({ page, noun }: { readonly page: PageState<unknown>; readonly noun: Noun }) {
  const { info, pageNumber } = page;
  if (!info) return null;
  const pages = Math.max(info.total_pages, 1);
  return (
    <nav class="pager" aria-label={t('list.pages', { items: nounOf(noun) })}>
      <button type="button" disabled={pageNumber <= 1 || page.loading} onClick={() => page.goTo(pageNumber - 1)}>
        {t('list.previous')}
      </button>
      <span>
        {t('list.where', {
          page: pageNumber,
          pages,
          count: info.total_elements,
          items: nounOf(noun, info.total_elements),
        })}
      </span>
      <button type="button" disabled={pageNumber >= pages || page.loading} onClick={() => page.goTo(pageNumber + 1)}>
        {t('list.next')}
      </button>
    </nav>
  );
}
