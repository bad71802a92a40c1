import { useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector, useAppStore } from '../../../app/hooks';
import { Checkbox, DocumentNumberInput, RadioGroup, TextInput } from '../../../components';
import { getRuntimeConfig } from '../../../config';
import { describeMessages } from '../../../i18n/messages';
import { carryQuery } from '../../../routing/query';
import { captchaApi } from '../../../services/captchaApi';
import { useCaptcha } from '../../../services/captcha';
import { ensureSessionId } from '../../../services/sessionId';
import { canonicalIdDocument } from '../../../validation/identifiers';
import { signUpSchema } from '../../../validation/onboarding';
import { nextStepOf } from '../../../onboarding/flow';
import { formActions, selectForm } from '../../../state/formSlice';
import { sessionStarted } from '../../../state/sessionSlice';
import { useRegisterMutation } from '../onboardingApi';
import { CountrySelect } from '../pickers';
import { SendRefusalNotice, sendRefusalOf, type SendRefusal } from '../sendRefusal';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm } from '../useStepForm';

const messages = describeMessages({
  // Neutral until the applicant says whether they are self-employed or a company (/register-as).
  lead: {
    id: 'onboarding.signUp.lead',
    defaultMessage: 'It takes about 10 minutes. Have your ID document at hand: we will ask for the rest once we know whether you are self-employed or a company.',
  },
  email: { id: 'onboarding.signUp.email', defaultMessage: 'E-mail' },
  emailHint: { id: 'onboarding.signUp.emailHint', defaultMessage: 'We will send you a code to confirm it.' },
  idType: { id: 'onboarding.signUp.idType', defaultMessage: 'Your ID document' },
  nif: { id: 'onboarding.signUp.idType.nif', defaultMessage: 'DNI or NIE' },
  passport: { id: 'onboarding.signUp.idType.passport', defaultMessage: 'Passport' },
  idNif: { id: 'onboarding.signUp.id.nif', defaultMessage: 'DNI or NIE number' },
  idNifHint: { id: 'onboarding.signUp.id.nifHint', defaultMessage: 'With its letter, for example 12345678Z or X1234567L. You will log in with it.' },
  idPassport: { id: 'onboarding.signUp.id.passport', defaultMessage: 'Passport number' },
  passportCountry: { id: 'onboarding.signUp.passportCountry', defaultMessage: 'Country that issued the passport' },
  privacy: { id: 'onboarding.signUp.privacy', defaultMessage: 'I have read and accept the <link>privacy policy</link>.' },
  precontract: { id: 'onboarding.signUp.precontract', defaultMessage: 'I have read the <link>pre-contract information</link>.' },
  promo: { id: 'onboarding.signUp.promotionalCode', defaultMessage: 'Promotional code (optional)' },
  promoFromLink: { id: 'onboarding.signUp.promotionalCodeFromLink', defaultMessage: 'It came with the link you followed.' },
  haveAccount: { id: 'onboarding.signUp.haveAccount', defaultMessage: 'Already a customer? <link>Log in</link>' },
  submit: { id: 'onboarding.signUp.submit', defaultMessage: 'Send me the code' },
});

interface SignUpValues {
  email: string;
  idType: 'nif' | 'passport';
  id: string;
  passportExpeditionCountry: string;
  privacyPolicy: boolean;
  precontractualInformation: boolean;
  promotionalCode: string;
}

const FIELDS: (keyof SignUpValues)[] = ['email', 'idType', 'id', 'passportExpeditionCountry', 'privacyPolicy', 'precontractualInformation', 'promotionalCode'];

/** The promotional code a campaign link carries: `?promotionalCode=` or `?promo=`. */
function promotionalCodeFromParam(search: string): string {
  const params = new URLSearchParams(search);
  return (params.get('promotionalCode') ?? params.get('promo') ?? '').trim().slice(0, 20);
}

/** /signUp: who the applicant is and where to send the code; the captcha runs when they submit. */
export function SignUpScreen() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const location = useLocation();
  const captcha = useCaptcha();
  const [register] = useRegisterMutation();
  const fromLink = promotionalCodeFromParam(location.search);
  const form = useAppSelector(selectForm);

  useEffect(() => {
    if (fromLink) dispatch(formActions.promotionCodeApplied({ promotionalCode: fromLink, promotionalCodeFromParam: true }));
  }, [dispatch, fromLink]);

  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  const { formik, field, text } = useStepForm<SignUpValues>({
    step: 'signUp',
    keepDraft: false,
    schema: signUpSchema,
    fields: FIELDS,
    // Who was signing up, when a session ran out: the browser's record, since there is no application to read.
    initialValues: () => ({
      email: form.email,
      idType: form.idType,
      id: form.id,
      passportExpeditionCountry: form.passportExpeditionCountry,
      privacyPolicy: false,
      precontractualInformation: false,
      promotionalCode: fromLink || form.promotionalCode,
    }),
    send: async (values) => {
      setRefusal(null);
      const sessionId = ensureSessionId(store.getState(), dispatch);
      const response = await captcha.execute('signup');
      const pass = await dispatch(captchaApi.endpoints.verifyCaptcha.initiate({ response, sessionId }, { forceRefetch: true })).unwrap();
      if (!pass.success) throw new Error('captcha');
      const promotionalCodeFromParam = Boolean(fromLink) && values.promotionalCode.trim() === fromLink;
      const registered = await register({
        email: values.email.trim(),
        idType: values.idType,
        id: values.id.trim(),
        ...(values.idType === 'passport' ? { passportExpeditionCountry: values.passportExpeditionCountry } : {}),
        privacyPolicy: values.privacyPolicy,
        precontractualInformation: values.precontractualInformation,
        promotionalCode: values.promotionalCode.trim(),
        promotionalCodeFromParam,
        sessionId,
      }).unwrap();
      dispatch(sessionStarted({ token: registered.token }));
      dispatch(
        formActions.registrationSubmitted({
          email: values.email.trim(),
          idType: values.idType,
          // As the server stores it: the later steps fill in the NIF and "Add myself" from it.
          id: values.idType === 'passport' ? values.id.trim().toUpperCase() : canonicalIdDocument(values.id),
          passportExpeditionCountry: values.idType === 'passport' ? values.passportExpeditionCountry : '',
          promotionalCode: values.promotionalCode.trim(),
          promotionalCodeFromParam,
        }),
      );
      return { next: nextStepOf('signUp', {}), arrival: { resendAfterSeconds: registered.resendAfterSeconds, sentTo: registered.maskedEmail } };
    },
    // Too many e-mails for now (to this address, from this connection): said under the form, everything kept.
    onFailure: (error) => {
      const refused = sendRefusalOf(error);
      setRefusal(refused);
      return refused !== null;
    },
  });

  const legal = getRuntimeConfig().legalLinks;
  const linkTo = (href: string) => (chunks: ReactNode[]) => (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {chunks}
    </a>
  );
  const passport = formik.values.idType === 'passport';
  const idType = field('idType');
  const privacy = field('privacyPolicy');
  const precontract = field('precontractualInformation');

  return (
    <StepLayout step="signUp" back={false} lead={intl.formatMessage(messages.lead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput type="email" inputMode="email" autoComplete="email" spellCheck={false} label={intl.formatMessage(messages.email)} description={intl.formatMessage(messages.emailHint)} {...text('email')} />
        <RadioGroup
          legend={intl.formatMessage(messages.idType)}
          options={[
            { value: 'nif', label: intl.formatMessage(messages.nif) },
            { value: 'passport', label: intl.formatMessage(messages.passport) },
          ]}
          {...idType}
          onChange={(value) => idType.set(value as SignUpValues['idType'])}
        />
        {passport ? (
          <TextInput autoCapitalize="characters" spellCheck={false} label={intl.formatMessage(messages.idPassport)} {...text('id')} />
        ) : (
          <DocumentNumberInput autoComplete="off" label={intl.formatMessage(messages.idNif)} description={intl.formatMessage(messages.idNifHint)} {...text('id')} />
        )}
        {passport && <CountrySelect label={intl.formatMessage(messages.passportCountry)} field={field('passportExpeditionCountry')} />}
        <Checkbox label={intl.formatMessage(messages.privacy, { link: linkTo(legal.privacy) })} {...privacy} checked={privacy.value} onChange={privacy.set} />
        <Checkbox label={intl.formatMessage(messages.precontract, { link: linkTo(legal.precontract) })} {...precontract} checked={precontract.value} onChange={precontract.set} />
        <TextInput
          autoCapitalize="characters"
          spellCheck={false}
          label={intl.formatMessage(messages.promo)}
          description={fromLink ? intl.formatMessage(messages.promoFromLink) : undefined}
          {...text('promotionalCode')}
        />
        <SendRefusalNotice id="sign-up-refusal" refusal={refusal} />
        <ContinueButton loading={formik.isSubmitting} label={intl.formatMessage(messages.submit)} />
      </form>
      <p className="dv-step__secondary">
        <span>{intl.formatMessage(messages.haveAccount, { link: (chunks: ReactNode[]) => <Link to={carryQuery('/login', location.search)}>{chunks}</Link> })}</span>
      </p>
    </StepLayout>
  );
}
