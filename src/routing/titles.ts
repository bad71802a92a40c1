import type { MessageDescriptor } from 'react-intl';
import type { RouteName } from './routes';

/**
 * The title of a screen, shown as its heading and as the page's title: `routes.{name}.title` in the locale
 * files, which hold one for every route in both languages (tested), so no default text ships with the app.
 */
export function routeTitle(name: RouteName): MessageDescriptor {
  return { id: `routes.${name}.title` };
}
