import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { GoogleReCaptchaProvider, useGoogleReCaptcha } from 'react-google-recaptcha-v3';
import { getRuntimeConfig } from '../../config';
import type { CaptchaClient } from './index';

const CaptchaContext = createContext<CaptchaClient | null>(null);

/** The proof-of-work solver is fetched on the first submit, not with the page. */
const altcha: CaptchaClient = {
  async execute(action) {
    const { apiBaseUrl, captcha } = getRuntimeConfig();
    const { altchaClient } = await import(/* webpackChunkName: "captcha-altcha" */ './altcha');
    return altchaClient(captcha.challengeUrl ?? `${apiBaseUrl.replace(/\/+$/, '')}/captcha/challenge`).execute(action);
  },
};

function RecaptchaBridge({ children }: { children: ReactNode }) {
  const { executeRecaptcha } = useGoogleReCaptcha();
  const client = useMemo<CaptchaClient>(
    () => ({
      async execute(action) {
        if (!executeRecaptcha) throw new Error('Network Error');
        return executeRecaptcha(action);
      },
    }),
    [executeRecaptcha],
  );
  return <CaptchaContext.Provider value={client}>{children}</CaptchaContext.Provider>;
}

export function CaptchaProvider({ children }: { children: ReactNode }) {
  const { captcha } = getRuntimeConfig();
  if (captcha.provider === 'recaptcha') {
    return (
      <GoogleReCaptchaProvider reCaptchaKey={captcha.siteKey ?? ''} useRecaptchaNet={false}>
        <RecaptchaBridge>{children}</RecaptchaBridge>
      </GoogleReCaptchaProvider>
    );
  }
  return <CaptchaContext.Provider value={altcha}>{children}</CaptchaContext.Provider>;
}

export function useCaptcha(): CaptchaClient {
  const client = useContext(CaptchaContext);
  if (!client) throw new Error('useCaptcha needs a CaptchaProvider');
  return client;
}
