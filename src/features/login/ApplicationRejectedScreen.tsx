import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { getRuntimeConfig } from '../../config';
import { describeMessages } from '../../i18n/messages';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import './login.css';

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
  const intl = useIntl();
  const location = useLocation();
  const phone = getRuntimeConfig().supportPhone;
  return (
    <section className="dv-login" aria-labelledby="rejected-title">
      <RouteTitle name="application-rejected" id="rejected-title" />
      <p>{intl.formatMessage(messages.body)}</p>
      <p className="dv-login__subtitle">
        {intl.formatMessage(messages.help, { phone: <a key="phone" href={`tel:${phone.replace(/[^+\d]/g, '')}`}>{phone}</a> })}
      </p>
      <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(messages.back)}</Link>
    </section>
  );
}
