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
import { snsSmsSender } from '../services/messaging/snsSmsSender';
import type { MessageSender } from '../services/messaging/types';
import { messageBudget } from '../services/messaging/budget';
import { messaging, type Messaging } from '../services/messaging/messaging';
import { captchaRepository } from '../repositories/captchaRepository';
import { messageBudgetRepository } from '../repositories/messageBudgetRepository';
import { oneTimeCodeRepository } from '../repositories/oneTimeCodeRepository';
import { outboxRepository } from '../repositories/outboxRepository';
import { sealingKeyRepository } from '../repositories/sealingKeyRepository';
import { onboardingTokens, type OnboardingTokens } from '../services/onboardingTokens';
import { oneTimeCodes, type OneTimeCodes } from '../services/oneTimeCodes';
import { sealingKeys, type SealingKeys } from '../services/sealingKeys';
import { expireInactiveApplications, expireOldRows } from '../services/housekeeping';
import { housekeeping, type Housekeeping } from '../services/housekeepingRun';
import { endRetention } from '../services/retentionSweep';
import { finishPendingDecisions, type ReviewDependencies } from '../services/reviews';
import { contractRepository } from '../repositories/contractRepository';
import { loadHighRiskCountries, type HighRiskCountries } from '../services/risk';
import { deriveKey } from '../services/serverSecret';
import { signInUsers, type SignInUsers } from '../services/signInUsers';
import { evidenceRetainUntil } from '../services/retention';

declare module 'fastify' {
  interface FastifyInstance {
    captcha: CaptchaProvider;
    captchaGate: CaptchaGate;
    codes: OneTimeCodes;
    /** SMS and e-mails a person asks for, paid for out of the message budgets before they are made. */
    messages: Messaging;
    sealingKeys: SealingKeys;
    /** Who holds an ID document, the sealed passwords waiting for it, and the sign-in users named by it. */
    signInUsers: SignInUsers;
    onboardingTokens: OnboardingTokens;
    /** The FATF lists the risk factor reads, loaded at start (replace the file and restart to update them). */
    highRiskCountries: HighRiskCountries;
    /** What the review's decisions work with, for the back office as for `npm run admin`. */
    reviewDependencies: ReviewDependencies;
    /** The countries whose mobiles the bank texts, read at start (SMS_COUNTRIES_FILE). */
    smsCountries: readonly string[];
    /** The timed cleanups and the review's watch, run every 10 minutes (tests run it when they choose). */
    housekeeping: Housekeeping;
  }
}

/**
 * SMS and e-mail each go to their real provider when configured, to the outbox otherwise; every message is paid
 * for out of the budgets first.
 */
function budgetedMessaging(app: FastifyInstance, config: Config, secret: Buffer): Messaging {
  const providers = { sms: smsSender(app, config), email: bankEmail(app, config) };
  const budget = messageBudget(
    messageBudgetRepository(app.db),
    { ...config.messageBudgets, key: deriveKey(secret, 'message-budgets'), clock: app.clock },
    { log: app.log, auditLog: app.auditLog, metrics: app.metrics },
  );
  return messaging(providers, budget, { log: app.log, metrics: app.metrics });
}

/** Amazon SNS or the generic HTTP sender when configured, the outbox otherwise. */
function smsSender(app: FastifyInstance, config: Config): MessageSender {
  const sms = config.messaging.sms;
  if (sms?.provider === 'http') return httpSmsSender({ ...sms, log: app.log });
  if (sms?.provider !== 'sns') return outboxSender(outboxRepository(app.db), app.clock, app.log);
  const sender = snsSmsSender({ ...sms, log: app.log });
  app.addHook('onClose', async () => sender.destroy());
  return sender;
}

/** The bank's own e-mail provider (the outbox unless SMTP is configured), as `npm run admin` sends with it. */
const bankEmail = (app: FastifyInstance, config: Config) => (config.messaging.smtp ? smtpSender(config.messaging.smtp) : outboxSender(outboxRepository(app.db), app.clock, app.log));

/** The services the routes share: captcha, one-time codes, messaging, the recovery sealing keys. */
export const servicesPlugin = fp(async (app: FastifyInstance, { config, secret }: { config: Config; secret: Buffer }) => {
  const gate = captchaGate(captchaRepository(app.db), { passSeconds: 120 });
  app.decorate('captchaGate', gate);
  app.decorate(
    'captcha',
    config.captcha.provider === 'recaptcha'
      ? recaptchaProvider({ secret: config.captcha.secret!, minScore: config.captcha.minScore })
      : altchaProvider({
          hmacSecret: deriveKey(secret, 'altcha').toString('base64'),
          hmacKeySecret: deriveKey(secret, 'altcha-key').toString('base64'),
          cost: config.captcha.altchaCost,
          counterRange: [2_000, 6_000],
          ttlSeconds: 300,
          rememberSolved: gate.rememberSolved,
        }),
  );
  app.decorate('codes', oneTimeCodes(oneTimeCodeRepository(app.db), { hmacKey: deriveKey(secret, 'one-time-codes'), maxSends: 5, ...config.codes, clock: app.clock }));
  app.decorate('messages', budgetedMessaging(app, config, secret));
  app.decorate('highRiskCountries', loadHighRiskCountries(config.highRiskCountriesFile));
  app.decorate('smsCountries', Object.freeze([...config.smsCountries]));
  app.decorate(
    'onboardingTokens',
    onboardingTokens({
      key: deriveKey(secret, 'onboarding-tokens'),
      lifetimeSeconds: config.onboardingTokenSeconds,
      sessionSeconds: config.onboardingSessionMaxSeconds,
      issuer: config.publicUrl,
      clock: app.clock,
    }),
  );
  app.decorate('signInUsers', signInUsers({ db: app.db, applications: app.applications, identity: app.identity, passwordKey: deriveKey(secret, 'pending-passwords') }));
  app.decorate('sealingKeys', sealingKeys(sealingKeyRepository(app.db), { storageKey: deriveKey(secret, 'sealing-keys'), rotateSeconds: 7 * 86_400, graceSeconds: 86_400 }));

  const reviewDependencies: ReviewDependencies = {
    db: app.db,
    applications: app.applications,
    contracts: contractRepository(app.db),
    auditLog: app.auditLog,
    identity: app.identity,
    signInUsers: app.signInUsers,
    messages: bankEmail(app, config),
    supportPhone: config.supportPhone,
    resumeUrl: `${config.publicUrl}/signUp`,
    highRiskCountries: app.highRiskCountries,
    // app.documents is decorated by a later plugin: read when a decision's effect runs.
    evidence: { retain: (id, decision, decidedAt) => app.documents.retainEvidence(id, evidenceRetainUntil(decision, decidedAt, config.retention)) },
  };
  app.decorate('reviewDependencies', reviewDependencies);
  const reviewEffects = reviewDependencies;
  const run = housekeeping(
    {
      'captcha-sweep': { run: (now) => gate.sweep(now), failure: 'captcha sweep failed' },
      'expire-rows': { run: (now) => expireOldRows(app.db, now), failure: 'housekeeping failed' },
      // A review decision whose run was interrupted (the user pool unreachable) is finished here too.
      'review-effects': {
        run: async (now) => {
          const { failed } = await finishPendingDecisions(reviewEffects, now);
          if (failed > 0) app.log.warn({ failed }, 'review decisions with effects still pending');
        },
        failure: 'finishing review decisions failed',
      },
      // app.documents is decorated by a later plugin: read when the sweep runs, long after every plugin is ready.
      'expire-applications': {
        run: (now) => expireInactiveApplications({ db: app.db, identity: app.identity, auditLog: app.auditLog, storage: app.documents }, now),
        failure: 'expiring inactive applications failed',
      },
      // The law's periods over: customers ten years after their relationship ended, refusals five years after.
      'end-retention': {
        run: (now) => endRetention({ db: app.db, identity: app.identity, auditLog: app.auditLog, storage: app.documents, retention: config.retention, log: app.log }, now),
        failure: 'erasing applications at the end of their retention failed',
      },
    },
    // REVIEW_TARGET_HOURS' default when there is no back office: the queue is then worked with npm run admin.
    { db: app.db, applications: app.applications, highRiskCountries: app.highRiskCountries, targetHours: config.staff?.reviewTargetHours ?? 48 },
    { log: app.log, metrics: app.metrics },
  );
  app.decorate('housekeeping', run);
  const sweeper = setInterval(() => void run.run(app.clock()), 10 * 60_000);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));
});
