import { routeByPath } from './routes';

/**
 * Query parameters carry over from route to route (promotional codes, campaign tags), except when going
 * to welcome, the end of the journey.
 */
export function carryQuery(to: string, currentSearch: string): string {
  const [pathname, ownQuery = ''] = to.split('?');
  if (routeByPath(pathname)?.name === 'welcome') return to;
  const merged = new URLSearchParams(currentSearch);
  for (const [key, value] of new URLSearchParams(ownQuery)) merged.set(key, value);
  const query = merged.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export function withCurrentQuery(to: string): string {
  return carryQuery(to, typeof window === 'undefined' ? '' : window.location.search);
}
