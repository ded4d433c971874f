/** Where a list is in its walk, and the way to the pages before and after. */
import type { PageState } from './use-page';

/** `noun` names the items, plural ("QR codes"); `one` names a single one when it differs by more than the s. */
export function Pager({
  page,
  noun,
  one,
}: {
  readonly page: PageState<unknown>;
  readonly noun: string;
  readonly one?: string;
}) {
  const { info, pageNumber } = page;
  if (!info) return null;
  const pages = Math.max(info.total_pages, 1);
  return (
    <nav class="pager" aria-label={`Pages of ${noun}`}>
      <button type="button" disabled={pageNumber <= 1 || page.loading} onClick={() => page.goTo(pageNumber - 1)}>
        Previous page
      </button>
      <span>
        Page {pageNumber} of {pages} · {info.total_elements}{' '}
        {info.total_elements === 1 ? (one ?? noun.replace(/s$/, '')) : noun}
      </span>
      <button type="button" disabled={pageNumber >= pages || page.loading} onClick={() => page.goTo(pageNumber + 1)}>
        Next page
      </button>
    </nav>
  );
}
