import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { altchaProvider } from '../services/captcha/altcha';
import { recaptchaProvider } from '../services/captcha/recaptcha';
import type { CaptchaProvider } from '../services/captcha/types';
import { captchaGate, type CaptchaGate } from '../services/captchaGate';
import { httpSmsSender } from '../services/messaging/httpSmsSender';
import { outboxSender } from '../services/messaging/outboxSender';
import { smtpSender } from '../services/messaging/smtpSender';
import type { MessageSender } from '../services/messaging/types';
import { onboardingTokens, type OnboardingTokens } from '../services/onboardingTokens';
import { oneTimeCodes, type OneTimeCodes } from '../services/oneTimeCodes';
import { sealingKeys, type SealingKeys } from '../services/sealingKeys';
import { expireOldRows } from '../services/housekeeping';
import { loadHighRiskCountries, type HighRiskCountries } from '../services/risk';
import { deriveKey } from '../services/serverSecret';

declare module 'fastify' {
  interface FastifyInstance {
    captcha: CaptchaProvider;
    captchaGate: CaptchaGate;
    codes: OneTimeCodes;
    messages: MessageSender;
    sealingKeys: SealingKeys;
    onboardingTokens: OnboardingTokens;
    /** The FATF lists the risk factor reads, loaded at start (replace the file and restart to update them). */
    highRiskCountries: HighRiskCountries;
  }
}

/** SMS and e-mail each go to their real provider when configured, to the outbox otherwise. */
function messageSender(app: FastifyInstance, messaging: Config['messaging']): MessageSender {
  const outbox = outboxSender(app.db, app.log);
  const sms = messaging.sms ? httpSmsSender(messaging.sms) : outbox;
  const email = messaging.smtp ? smtpSender(messaging.smtp) : outbox;
  return { send: (message) => (message.channel === 'sms' ? sms : email).send(message) };
}

/** The services the routes share: captcha, one-time codes, messaging, the recovery sealing keys. */
export const servicesPlugin = fp(async (app: FastifyInstance, { config, secret, clock }: { config: Config; secret: Buffer; clock?: () => Date }) => {
  const gate = captchaGate(app.db, { passSeconds: 120 });
  app.decorate('captchaGate', gate);
  app.decorate(
    'captcha',
    config.captcha.provider === 'recaptcha'
      ? recaptchaProvider({ secret: config.captcha.secret!, minScore: config.captcha.minScore })
      : altchaProvider({
          hmacSecret: deriveKey(secret, 'altcha').toString('base64'),
          hmacKeySecret: deriveKey(secret, 'altcha-key').toString('base64'),
          // About 200 000 PBKDF2 rounds on average: under a second in a phone's browser, costly in bulk.
          cost: 50,
          counterRange: [2_000, 6_000],
          ttlSeconds: 300,
          rememberSolved: gate.rememberSolved,
        }),
  );
  app.decorate('codes', oneTimeCodes(app.db, { hmacKey: deriveKey(secret, 'one-time-codes'), maxSends: 5, ...config.codes, clock }));
  app.decorate('messages', messageSender(app, config.messaging));
  app.decorate('highRiskCountries', loadHighRiskCountries(config.highRiskCountriesFile));
  app.decorate(
    'onboardingTokens',
    onboardingTokens({ key: deriveKey(secret, 'onboarding-tokens'), lifetimeSeconds: config.onboardingTokenSeconds, issuer: config.publicUrl }),
  );
  app.decorate('sealingKeys', sealingKeys(app.db, { storageKey: deriveKey(secret, 'sealing-keys'), rotateSeconds: 7 * 86_400, graceSeconds: 86_400 }));

  const sweeper = setInterval(() => {
    void gate.sweep().catch((error: unknown) => app.log.warn({ err: error }, 'captcha sweep failed'));
    void expireOldRows(app.db, clock?.() ?? new Date()).catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping failed'));
  }, 10 * 60_000);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));
});
