import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { describeMessages } from '../../i18n/messages';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import { recoveryFinished } from '../../state/authSlice';
import './recovery.css';

const messages = describeMessages({
  done: {
    id: 'recovery.success.done',
    defaultMessage: 'Your password has been changed and any open sessions have been closed. You can log in with the new one now.',
  },
  login: { id: 'recovery.success.login', defaultMessage: 'Log in' },
});

export function RecoverSuccessScreen() {
  const intl = useIntl();
  const location = useLocation();
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(recoveryFinished());
  }, [dispatch]);
  return (
    <section className="dv-recovery" aria-labelledby="recovery-title">
      <RouteTitle name="recover-password-success" id="recovery-title" />
      <p className="dv-recovery__intro">{intl.formatMessage(messages.done)}</p>
      <Link className="dv-recovery__action" to={carryQuery('/login', location.search)}>
        {intl.formatMessage(messages.login)}
      </Link>
    </section>
  );
}
