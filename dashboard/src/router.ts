/** The dashboard's pages are addressed by the URL's hash (#/qrcodes/<id>), so the server serves one page. */
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  /**
   * The section: overview, qrcodes, payments, refunds, reconciliation, merchants, accounts (one
   * account's page), keys, webhooks, activity.
   */
  readonly section: string;
  /** What follows the section: an id, 'new', or nothing. */
  readonly rest: string | undefined;
}

/** The first page after sign-in. */
export const DEFAULT_SECTION = 'overview';

export function parseRoute(hash: string): Route {
  const [section, rest] = hash.replace(/^#\/?/, '').split('/');
  return { section: section || DEFAULT_SECTION, rest: rest ? decodeURIComponent(rest) : undefined };
}

export const linkTo = (section: string, rest?: string): string =>
  `#/${section}${rest ? `/${encodeURIComponent(rest)}` : ''}`;

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () =>
      setRoute((previous) => {
        const next = parseRoute(location.hash);
        return next.section === previous.section && next.rest === previous.rest ? previous : next;
      });
    addEventListener('hashchange', changed);
    // Effects run a frame after the render: a hash changed in between (a link followed as the page
    // appears) fired its event before anyone listened. Read it now.
    changed();
    return () => removeEventListener('hashchange', changed);
  }, []);
  return route;
}
