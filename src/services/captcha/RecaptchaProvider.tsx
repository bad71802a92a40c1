import { useMemo, type ReactNode } from 'react';
import { GoogleReCaptchaProvider, useGoogleReCaptcha } from 'react-google-recaptcha-v3';
import { CaptchaContext } from './context';
import type { CaptchaClient } from './index';

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

/** Google reCAPTCHA v3 (invisible), loaded only when the configuration names it. */
export default function RecaptchaProvider({ siteKey, children }: { siteKey: string; children: ReactNode }) {
  return (
    <GoogleReCaptchaProvider reCaptchaKey={siteKey} useRecaptchaNet={false}>
      <RecaptchaBridge>{children}</RecaptchaBridge>
    </GoogleReCaptchaProvider>
  );
}
