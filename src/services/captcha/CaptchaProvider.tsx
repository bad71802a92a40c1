import { lazy, Suspense, useContext, type ReactNode } from 'react';
import { getRuntimeConfig } from '../../config';
import { CaptchaContext } from './context';
import type { CaptchaClient } from './index';

const RecaptchaProvider = lazy(() => import(/* webpackChunkName: "captcha-recaptcha" */ './RecaptchaProvider'));

/** The proof-of-work solver is fetched on the first submit, not with the page. */
const altcha: CaptchaClient = {
  async execute(action) {
    const { apiBaseUrl, captcha } = getRuntimeConfig();
    const { altchaClient } = await import(/* webpackChunkName: "captcha-altcha" */ './altcha');
    return altchaClient(captcha.challengeUrl ?? `${apiBaseUrl.replace(/\/+$/, '')}/captcha/challenge`).execute(action);
  },
};

export function CaptchaProvider({ children }: { children: ReactNode }) {
  const { captcha } = getRuntimeConfig();
  if (captcha.provider === 'recaptcha') {
    return (
      <Suspense fallback={null}>
        <RecaptchaProvider siteKey={captcha.siteKey ?? ''}>{children}</RecaptchaProvider>
      </Suspense>
    );
  }
  return <CaptchaContext.Provider value={altcha}>{children}</CaptchaContext.Provider>;
}

export function useCaptcha(): CaptchaClient {
  const client = useContext(CaptchaContext);
  if (!client) throw new Error('useCaptcha needs a CaptchaProvider');
  return client;
}
