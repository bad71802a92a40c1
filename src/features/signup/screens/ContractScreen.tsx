import { useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { Checkbox, LoadingButton } from '../../../components';
import { getRuntimeConfig } from '../../../config';
import { describeMessages } from '../../../i18n/messages';
import { errorRaised } from '../../../services/requestEvents';
import { docuSignSchema } from '../../../validation/onboarding';
import { validateSchema } from '../../../validation/validate';
import { CodeEntry, ResendCode, useCodeStep } from '../CodeEntry';
import { useContractConsentMutation, useContractTextQuery, useResendContractCodeMutation, type ContractText } from '../onboardingApi';
import { SendRefusalNotice, sendRefusalOf, type SendRefusal } from '../sendRefusal';
import { ContinueButton, StepLayout } from '../StepLayout';

const messages = describeMessages({
  lead: { id: 'onboarding.docu-sign.lead', defaultMessage: 'Your contract, made from your answers. Read it, then sign it with a code we send to your phone.' },
  contractTitle: { id: 'onboarding.docu-sign.frameTitle', defaultMessage: 'Your Divilo contract' },
  download: { id: 'onboarding.docu-sign.download', defaultMessage: 'Open the contract as a PDF' },
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
  version: { id: 'onboarding.docu-sign.version', defaultMessage: 'Version of the contract text: {version}' },
});

/**
 * The contract PDF, fetched with the onboarding token, as a URL the page can link to (opened, or downloaded); null
 * until it is here, and when it cannot be had (the page then shows the words alone).
 */
function useContractUrl(): string | null {
  const token = useAppSelector((state) => state.session.authorizationToken);
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let made: string | null = null;
    let cancelled = false;
    void fetch(`${getRuntimeConfig().apiBaseUrl.replace(/\/+$/, '')}/onboarding-management-private/contract`, { headers: { authorization: `Bearer ${token}` } })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const blob = await response.blob();
        if (cancelled) return;
        made = URL.createObjectURL(new Blob([blob], { type: 'application/pdf' }));
        setUrl(made);
      })
      .catch(() => !cancelled && setUrl(null));
    return () => {
      cancelled = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [token]);
  return url;
}

/**
 * Whether the browser shows a PDF itself. Most phone browsers do not: there the PDF is offered as a file to download
 * (named), elsewhere it opens in a new tab.
 */
const showsPdf = () => typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === true;

/** The contract's words, as the PDF prints them, grouped for reading: each run of fields is one list. */
function ContractWords({ contract, title, version }: { contract: ContractText; title: string; version: string }) {
  const content: ReactNode[] = [];
  let fields: ReactNode[] = [];
  const endFields = () => {
    if (fields.length) content.push(<dl key={`fields-${content.length}`}>{fields}</dl>);
    fields = [];
  };
  contract.blocks.forEach((block, index) => {
    if (block.kind === 'field') {
      fields.push(
        <div key={index}>
          <dt>{block.label}</dt>
          <dd>{block.value}</dd>
        </div>,
      );
      return;
    }
    endFields();
    if (block.kind === 'title') content.push(<h2 key={index}>{block.text}</h2>);
    else if (block.kind === 'heading') content.push(<h3 key={index}>{block.text}</h3>);
    else if (block.kind === 'subheading') content.push(<h4 key={index}>{block.text}</h4>);
    else if (block.kind === 'notice') content.push(<p key={index} className="dv-contract__notice">{block.text}</p>);
    else content.push(<p key={index}>{block.text}</p>);
  });
  endFields();
  // A region of its own that scrolls, reachable with the keyboard, in the contract's language; under it, in the
  // page's, the version the signature will record, so the words read here can be told from another text's.
  return (
    <>
      <section className="dv-contract" aria-label={title} tabIndex={0} lang={contract.language}>
        {content}
      </section>
      <p className="dv-contract__version">{version}</p>
    </>
  );
}

/**
 * /docu-sign: the contract's words shown in the page (the PDF one link away), the consent, and the signature
 * confirmed by an SMS code.
 */
export function DocuSignScreen() {
  const intl = useIntl();
  const words = useContractTextQuery();
  const pdfUrl = useContractUrl();
  const [consent, { isLoading: consenting }] = useContractConsentMutation();
  const [resend, { isLoading: resending }] = useResendContractCodeMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [electronicIdentification, setElectronicIdentification] = useState(false);
  const [consentTried, setConsentTried] = useState(false);
  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  const dispatch = useAppDispatch();
  const { formik, field, code, askAgain } = useCodeStep({ step: 'docu-sign', resendAfterSeconds: undefined, resend: () => resend().unwrap() });

  const consentMissing = consentTried && !electronicIdentification;

  const askForCode = async () => {
    setConsentTried(true);
    const invalid = await validateSchema(docuSignSchema, { electronicIdentification });
    if (Object.keys(invalid).length > 0) return;
    setRefusal(null);
    try {
      const sent = await consent({ electronicIdentification }).unwrap();
      setSentTo(sent.maskedPhone);
      code.resent(sent.resendAfterSeconds);
      code.setFeedback(null);
    } catch (error) {
      // Asked again too soon, blocked, or too many messages: said next to the button. Anything else the global
      // modal says (error.errorSendingData). The consent stays ticked either way.
      const refused = sendRefusalOf(error);
      setRefusal(refused);
      if (!refused) dispatch(errorRaised('error.errorSendingData'));
    }
  };

  return (
    <StepLayout step="docu-sign" lead={intl.formatMessage(messages.lead)}>
      {words.data ? (
        <>
          <ContractWords contract={words.data} title={intl.formatMessage(messages.contractTitle)} version={intl.formatMessage(messages.version, { version: words.data.version })} />
          {pdfUrl && (
            <p>
              {showsPdf() ? (
                <a href={pdfUrl} target="_blank" rel="noopener noreferrer">
                  {intl.formatMessage(messages.download)}
                </a>
              ) : (
                <a href={pdfUrl} download={intl.formatMessage(messages.fileName)}>
                  {intl.formatMessage(messages.downloadFile)}
                </a>
              )}
            </p>
          )}
        </>
      ) : (
        <p className="dv-step__note" role="status">
          {intl.formatMessage(words.isError ? messages.unavailable : messages.loading)}
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
          <SendRefusalNotice id="docu-sign-refusal" refusal={refusal} />
          <LoadingButton loading={consenting} onClick={askForCode}>
            {intl.formatMessage(messages.sendCode)}
          </LoadingButton>
        </div>
      ) : (
        <>
        <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
          <p>{intl.formatMessage(messages.sentTo, { phone: <strong key="phone">{sentTo}</strong> })}</p>
          {/* The button that asked goes away as the code field appears: focus follows to where the code goes. */}
          <CodeEntry label={intl.formatMessage(messages.code)} field={field('code')} state={code} focusOnMount />
          <ContinueButton loading={formik.isSubmitting} label={intl.formatMessage(messages.sign)} />
        </form>
        <ResendCode state={code} resending={resending} onResend={askAgain} />
        </>
      )}
    </StepLayout>
  );
}
