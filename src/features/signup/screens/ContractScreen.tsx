import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useAppSelector } from '../../../app/hooks';
import { Checkbox, LoadingButton } from '../../../components';
import { getRuntimeConfig } from '../../../config';
import { describeMessages } from '../../../i18n/messages';
import { codeStepSchema, docuSignSchema } from '../../../validation/onboarding';
import { validateSchema } from '../../../validation/validate';
import { CodeEntry, ResendCode, useCodeFeedback } from '../CodeEntry';
import { useContractConsentMutation, useResendContractCodeMutation } from '../onboardingApi';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm } from '../useStepForm';

const messages = describeMessages({
  lead: { id: 'onboarding.docu-sign.lead', defaultMessage: 'Your contract, made from your answers. Read it, then sign it with a code we send to your phone.' },
  contractTitle: { id: 'onboarding.docu-sign.frameTitle', defaultMessage: 'Your Divilo contract (PDF)' },
  download: { id: 'onboarding.docu-sign.download', defaultMessage: 'Open the contract as a PDF' },
  noViewer: {
    id: 'onboarding.docu-sign.noViewer',
    defaultMessage: 'Your contract is ready as a PDF file. Download it and read it before you sign.',
  },
  downloadFile: { id: 'onboarding.docu-sign.downloadFile', defaultMessage: 'Download the contract (PDF)' },
  fileName: { id: 'onboarding.docu-sign.fileName', defaultMessage: 'divilo-contract.pdf' },
  loading: { id: 'onboarding.docu-sign.loading', defaultMessage: 'Preparing your contract…' },
  unavailable: { id: 'onboarding.docu-sign.unavailable', defaultMessage: 'We could not show your contract. Reload the page to try again.' },
  consent: {
    id: 'onboarding.docu-sign.consent',
    defaultMessage: 'I agree to be identified electronically and to sign this contract with a code sent to my phone.',
  },
  sendCode: { id: 'onboarding.docu-sign.sendCode', defaultMessage: 'Send me the code to sign' },
  sentTo: { id: 'onboarding.docu-sign.sentTo', defaultMessage: 'We have sent a 6-digit code by SMS to {phone}.' },
  code: { id: 'onboarding.docu-sign.code', defaultMessage: 'SMS code' },
  sign: { id: 'onboarding.docu-sign.sign', defaultMessage: 'Sign the contract' },
});

/** The contract PDF, fetched with the onboarding token, as a URL the page can show. */
function useContractUrl(): { url: string | null; failed: boolean } {
  const token = useAppSelector((state) => state.session.authorizationToken);
  const [result, setResult] = useState<{ url: string | null; failed: boolean }>({ url: null, failed: false });
  useEffect(() => {
    let url: string | null = null;
    let cancelled = false;
    void fetch(`${getRuntimeConfig().apiBaseUrl.replace(/\/+$/, '')}/onboarding-management-private/contract`, { headers: { authorization: `Bearer ${token}` } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const blob = await response.blob();
        if (cancelled) return;
        url = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
        setResult({ url, failed: false });
      })
      .catch(() => !cancelled && setResult({ url: null, failed: true }));
    return () => {
      cancelled = true;
      if (url) URL.revokeObjectURL(url);
    };
  }, [token]);
  return result;
}

/**
 * Whether the browser shows a PDF inside the page. Phone browsers mostly do not (Chrome on Android leaves the frame
 * blank): there the contract is offered as a file to download instead.
 */
const showsPdfInPage = () => typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === true;

/** /docu-sign: the contract shown in the page, the consent, and the signature confirmed by an SMS code. */
export function DocuSignScreen() {
  const intl = useIntl();
  const contract = useContractUrl();
  const [consent, { isLoading: consenting }] = useContractConsentMutation();
  const [resend, { isLoading: resending }] = useResendContractCodeMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [electronicIdentification, setElectronicIdentification] = useState(false);
  const [consentTried, setConsentTried] = useState(false);
  const code = useCodeFeedback(undefined);

  const consentMissing = consentTried && !electronicIdentification;

  const { formik, field } = useStepForm<{ code: string }>({
    step: 'docu-sign',
    schema: codeStepSchema,
    fields: ['code'],
    initialValues: () => ({ code: '' }),
    toBody: ({ code: typed }) => ({ code: typed.trim() }),
    onFailure: (error) => {
      if (!code.failure(error)) return false;
      void formik.setFieldValue('code', '', false);
      field('code').ref.current?.focus();
      return true;
    },
  });

  const askForCode = async () => {
    setConsentTried(true);
    const invalid = await validateSchema(docuSignSchema, { electronicIdentification });
    if (Object.keys(invalid).length > 0) return;
    try {
      const sent = await consent({ electronicIdentification }).unwrap();
      setSentTo(sent.maskedPhone);
      code.resent(sent.resendAfterSeconds);
      code.setFeedback(null);
    } catch {
      // The global modal says it (error.errorSendingData); the consent stays ticked.
    }
  };

  const askAgain = async () => {
    try {
      code.resent((await resend().unwrap()).resendAfterSeconds);
    } catch (error) {
      code.resendRefused(error);
    }
  };

  return (
    <StepLayout step="docu-sign" lead={intl.formatMessage(messages.lead)}>
      {contract.url && showsPdfInPage() ? (
        <>
          <iframe className="dv-contract" src={contract.url} title={intl.formatMessage(messages.contractTitle)} />
          <p>
            <a href={contract.url} target="_blank" rel="noopener noreferrer">
              {intl.formatMessage(messages.download)}
            </a>
          </p>
        </>
      ) : contract.url ? (
        <div className="dv-contract-file">
          <p>{intl.formatMessage(messages.noViewer)}</p>
          <a className="dv-button dv-button--gray" href={contract.url} download={intl.formatMessage(messages.fileName)}>
            {intl.formatMessage(messages.downloadFile)}
          </a>
        </div>
      ) : (
        <p className="dv-step__note" role="status">
          {intl.formatMessage(contract.failed ? messages.unavailable : messages.loading)}
        </p>
      )}
      <Checkbox
        label={intl.formatMessage(messages.consent)}
        name="electronicIdentification"
        checked={electronicIdentification}
        onChange={setElectronicIdentification}
        error={consentMissing}
        errorText={consentMissing ? intl.formatMessage({ id: 'validations.consent' }) : undefined}
      />
      {sentTo === null ? (
        <div className="dv-step__actions">
          <LoadingButton loading={consenting} onClick={askForCode}>
            {intl.formatMessage(messages.sendCode)}
          </LoadingButton>
        </div>
      ) : (
        <>
        <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
          <p>{intl.formatMessage(messages.sentTo, { phone: <strong key="phone">{sentTo}</strong> })}</p>
          <CodeEntry label={intl.formatMessage(messages.code)} field={field('code')} state={code} />
          <ContinueButton loading={formik.isSubmitting} label={intl.formatMessage(messages.sign)} />
        </form>
        <ResendCode state={code} resending={resending} onResend={askAgain} />
        </>
      )}
    </StepLayout>
  );
}
