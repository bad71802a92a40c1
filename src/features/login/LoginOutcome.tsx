import type { MessageDescriptor } from 'react-intl';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { phoneHref } from '../../components';
import { getRuntimeConfig } from '../../config';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import type { RouteName } from '../../routing/routes';
import './login.css';

interface LoginOutcomeProps {
  /** The route whose title heads the page. */
  name: RouteName;
  titleId: string;
  body: MessageDescriptor;
  /** Takes `{phone}`: the bank's number, as a link to call it. */
  help: MessageDescriptor;
  back: MessageDescriptor;
}

/** A login that cannot go on, and why: the answer, the bank's number to call, the way back to the login form. */
export function LoginOutcome({ name, titleId, body, help, back }: LoginOutcomeProps) {
  const intl = useIntl();
  const location = useLocation();
  const phone = getRuntimeConfig().supportPhone;
  return (
    <section className="dv-login" aria-labelledby={titleId}>
      <RouteTitle name={name} id={titleId} />
      <p>{intl.formatMessage(body)}</p>
      <p className="dv-login__subtitle">
        {intl.formatMessage(help, { phone: <a key="phone" href={`tel:${phoneHref(phone)}`}>{phone}</a> })}
      </p>
      <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(back)}</Link>
    </section>
  );
}
