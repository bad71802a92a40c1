import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { getRuntimeConfig } from '../../config';
import { describeMessages } from '../../i18n/messages';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import './login.css';

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
  const intl = useIntl();
  const location = useLocation();
  const phone = getRuntimeConfig().supportPhone;
  return (
    <section className="dv-login" aria-labelledby="verification-title">
      <RouteTitle name="client-verification" id="verification-title" />
      <p>{intl.formatMessage(messages.body)}</p>
      <p className="dv-login__subtitle">
        {intl.formatMessage(messages.help, { phone: <a key="phone" href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{phone}</a> })}
      </p>
      <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(messages.back)}</Link>
    </section>
  );
}
