import { useFormik } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppStore } from '../../app/hooks';
import { DocumentNumberInput, LoadingButton } from '../../components';
import { useFormFields } from '../../forms/useFormFields';
import { describeMessages } from '../../i18n/messages';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import { useCaptcha } from '../../services/captcha';
import { captchaApi } from '../../services/captchaApi';
import { outageOf } from '../../services/outage';
import { ensureSessionId } from '../../services/sessionId';
import { canonicalIdDocument, validateSchema } from '../../validation';
import { recoveryStarted } from '../../state/authSlice';
import { recoveryApi } from './recoveryApi';
import { recoverInitSchema, type RecoverInitValues } from './recoverySchemas';
import './recovery.css';

const messages = describeMessages({
  intro: {
    id: 'recovery.init.intro',
    defaultMessage: 'Tell us your ID document number. If it belongs to a customer, we will send a code by SMS to the phone we have.',
  },
  userId: { id: 'recovery.init.userId', defaultMessage: 'ID document (DNI or NIE)' },
  submit: { id: 'recovery.init.submit', defaultMessage: 'Send me a code' },
  back: { id: 'recovery.backToLogin', defaultMessage: 'Back to log in' },
  failed: { id: 'recovery.init.failed', defaultMessage: 'We could not start the recovery. Please try again.' },
  unavailable: { id: 'recovery.init.unavailable', defaultMessage: "We can't reach our service right now. Your ID document is still here: try again in a moment." },
});

/** Step 1 of password recovery: the ID document number, then an SMS code (the answer never says if it exists). */
export function RecoverInitScreen() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  const location = useLocation();
  const captcha = useCaptcha();
  const [verifyCaptcha] = captchaApi.useLazyVerifyCaptchaQuery();
  const [startRecovery] = recoveryApi.useStartRecoveryMutation();
  const [failed, setFailed] = useState<'failed' | 'unavailable' | null>(null);

  const formik = useFormik<RecoverInitValues>({
    initialValues: { userId: '' },
    validate: (values) => validateSchema(recoverInitSchema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      setFailed(null);
      const userId = canonicalIdDocument(values.userId);
      try {
        const sessionId = ensureSessionId(store.getState(), dispatch);
        const { success } = await verifyCaptcha({ response: await captcha.execute('recovery'), sessionId }).unwrap();
        if (!success) throw new Error('captcha');
        const answer = await startRecovery({ userId }).unwrap();
        const resendAvailableAt = answer.resendAfterSeconds ? Date.now() + answer.resendAfterSeconds * 1000 : null;
        dispatch(recoveryStarted({ userId, resendAvailableAt }));
        navigate(carryQuery('/recover-password/confirm', location.search));
      } catch (error) {
        setFailed(outageOf(error) ? 'unavailable' : 'failed');
      }
    },
  });
  const field = useFormFields(formik, ['userId']);

  return (
    <section className="dv-recovery" aria-labelledby="recovery-title">
      <RouteTitle name="recover-password-init" id="recovery-title" />
      <p className="dv-recovery__intro">{intl.formatMessage(messages.intro)}</p>
      <form className="dv-recovery__form" noValidate onSubmit={formik.handleSubmit}>
        <DocumentNumberInput label={intl.formatMessage(messages.userId)} {...field('userId')} />
        <p className="dv-recovery__error" role="alert">
          {failed && intl.formatMessage(messages[failed])}
        </p>
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.submit)}
        </LoadingButton>
      </form>
      <p>
        <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(messages.back)}</Link>
      </p>
    </section>
  );
}
