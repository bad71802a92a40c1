import { describeMessages } from '../../i18n/messages';
import { LoginOutcome } from './LoginOutcome';

const messages = describeMessages({
  body: {
    id: 'login.clientVerification.body',
    defaultMessage:
      'Your application is not finished yet, or we are still checking your details. We will let you know by e-mail as soon as your account is ready.',
  },
  help: {
    id: 'login.clientVerification.help',
    defaultMessage: 'If you have any questions, call us on {phone}.',
  },
  back: { id: 'login.clientVerification.back', defaultMessage: 'Back to log in' },
});

/** Where a customer lands whose sign-in the identity service refused with ERR-2809. */
export function ClientVerificationScreen() {
  return <LoginOutcome name="client-verification" titleId="verification-title" {...messages} />;
}
