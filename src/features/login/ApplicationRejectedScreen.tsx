import { describeMessages } from '../../i18n/messages';
import { LoginOutcome } from './LoginOutcome';

const messages = describeMessages({
  body: {
    id: 'login.applicationRejected.body',
    defaultMessage: 'We have reviewed your application and cannot open your Divilo account. This decision is final for this application, so you cannot log in. We have also sent it to you by e-mail.',
  },
  help: {
    id: 'login.applicationRejected.help',
    defaultMessage: 'If you have questions, call us on {phone}, Monday to Friday, 9:00 to 18:00.',
  },
  back: { id: 'login.applicationRejected.back', defaultMessage: 'Back to log in' },
});

/** Where a customer lands whose application the bank rejected: the answer, as the rejection e-mail gives it. */
export function ApplicationRejectedScreen() {
  return <LoginOutcome name="application-rejected" titleId="rejected-title" {...messages} />;
}
