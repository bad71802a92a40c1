import type { IntlShape } from 'react-intl';
import { stepById } from '../../onboarding/flow';
import { describeMessages } from '../../i18n/messages';
import { routeTitle } from '../../routing/titles';

const messages = describeMessages({
  ofPath: {
    id: 'backOffice.step.ofPath',
    defaultMessage: '{title} ({path, select, freelance {freelancers} other {companies}})',
  },
});

/**
 * A step of the wizard named as its screen is titled for the applicant (the route titles of the locale files).
 * `withPath` adds whose path it is, for lists that mix both paths, where "Tell us more" would be there twice.
 * An id the wizard does not know is shown as it is.
 */
export function stepTitle(intl: IntlShape, id: string, withPath = false): string {
  const step = stepById(id);
  if (!step) return id;
  const title = intl.formatMessage(routeTitle(step.id));
  return withPath && step.path !== 'common' ? intl.formatMessage(messages.ofPath, { title, path: step.path }) : title;
}
