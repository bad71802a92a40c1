// The onboarding funnel of the back office, on both databases and on the test's own clock: applicants who walk
// the wizard through its calls, others written to the audit log as those calls write it (their applications
// long removed), and a signed application decided by a reviewer. Counts, medians, the period's edges, and that
// nothing of who the applicants are comes out.
import { randomUUID } from 'node:crypto';
import { journey, nextStepOf, type StepId } from '../../../src/onboarding/flow';
import { funnelOf, type Funnel, type FunnelPath } from '../../../server/services/funnel';
import { expireInactiveApplications } from '../../../server/services/housekeeping';
import { approveApplication } from '../../../server/services/reviews';
import { describeEachDialect, openTestDatabase } from '../helpers';
import { lastCode, passCaptcha, startLoginServer } from '../login/loginServer';
import { reviewDependenciesOf } from '../onboarding/reviewDependencies';
import { consentAndSign, readyToSign } from '../onboarding/signing';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: 'Núñez', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
const ACTIVITY = { selfEmployedId: '00000000t', selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' };

/** What the calls of the steps not saved as answers write when they are done (services/funnel.ts reads them). */
const WRITTEN: Partial<Record<StepId, string>> = {
  'contact-phone': 'onboarding.phone_code_sent',
  'confirm-telephone': 'onboarding.phone_confirmed',
  'divilo-password': 'onboarding.password_set',
  'check-identity': 'onboarding.identity_check_started',
  'check-identity-waiting': 'onboarding.identity_check_approved',
  'docu-sign': 'onboarding.contract_signed',
};
const EVENTS: Record<string, string> = {
  approved: 'onboarding.review_approved',
  rejected: 'onboarding.review_rejected',
  expired: 'onboarding.application_expired',
  'already-exists': 'onboarding.already_exists',
};
const SAVED_STEPS = ['personal-info', 'register-as', 'your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance'];
const COMPANY_STEPS = ['about-company', 'about-company-info', 'about-company-address', 'articles-of-association', 'corporate-tax', 'about-company-numbers', 'royal-owners', 'tell-us-more-company'];

/** A valid DNI for `n`. */
const nif = (n: number) => `${String(n).padStart(8, '0')}${'TRWAGMYFPDXBNJZSQVHLCKE'[n % 23]}`;

describeEachDialect('back office: the onboarding funnel', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServer>>;
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  // The period is the day before the test's; everything happens at the moment `now` says.
  const from = new Date(Math.floor(Date.now() / DAY) * DAY - DAY);
  const to = new Date(from.getTime() + DAY);
  let now = from.getTime();
  const at = (minutes: number) => (now = from.getTime() + minutes * MINUTE);
  const after = (seconds: number) => (now += seconds * 1000);
  const funnel = (path: FunnelPath, period = { from, to }) => funnelOf(server.app.db, { ...period, path });
  const emails: string[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    server = await startLoginServer({}, { database, clock: () => new Date(now) });
  });
  afterAll(async () => {
    await server.close();
    await database.destroy();
  });

  async function post(path: string, token: string | undefined, body: unknown) {
    const response = await fetch(`${server.api}/${path}`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = { status: response.status, body: (await response.json()) as Record<string, unknown> };
    expect(answer).toMatchObject({ status: 200 });
    return answer.body;
  }
  /** /signUp through its call: the sign-up's token. */
  async function signUp(email: string, id: string): Promise<string> {
    emails.push(email);
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    return (await post('onboarding-management/register', undefined, { email, idType: 'nif', id, privacyPolicy: true, precontractualInformation: true, sessionId })).token as string;
  }
  /** /reg-code: the application's token. */
  const confirm = async (token: string, email: string) => (await post('onboarding-management-private/email/verify', token, { code: await lastCode(server.app, email) })).token as string;
  const step = (path: string, token: string, body: unknown) => post(`onboarding-management-private/${path}`, token, body);

  /**
   * An applicant written to the log as the calls write it: the sign-up at `start`, then each step (or event) the
   * given seconds after the one before; a save's `next` as the flow picks it for `personType`, unless given.
   */
  async function scripted(personType: 'freelance' | 'company' | '', start: number, walk: [what: string, seconds: number, next?: string][]) {
    const registration = `registration:${randomUUID()}`;
    const application = `application:${randomUUID()}`;
    let time = start;
    const write = (actor: string, action: string, subject: string, details?: Record<string, unknown>) => server.app.auditLog.append({ actor, action, subject, details }, new Date(time));
    await write(registration, 'onboarding.registered', registration);
    for (const [what, seconds, next] of walk) {
      time += seconds * 1000;
      if (what === 'reg-code') await write(registration, 'onboarding.application_created', application);
      else if (what === 'already-exists') await write(registration, EVENTS[what], registration);
      else if (SAVED_STEPS.includes(what) || COMPANY_STEPS.includes(what)) {
        await write(application, 'onboarding.step_saved', application, { step: what, next: next ?? nextStepOf(what as StepId, { personType }) });
      } else await write(what === 'approved' || what === 'rejected' ? 'reviewer:marta' : application, WRITTEN[what as StepId] ?? EVENTS[what], application);
    }
  }

  const UP_TO_REGISTER_AS = ['reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as'];
  /** The steps to register-as, taking these seconds each. */
  const shared = (...seconds: number[]): [string, number][] => UP_TO_REGISTER_AS.map((id, index) => [id, seconds[index]]);
  const tail = (seconds: number): [string, number][] => ['divilo-password', 'check-identity', 'check-identity-waiting', 'docu-sign'].map((id) => [id, seconds]);
  let decided: string;

  beforeAll(async () => {
    // Through the calls, the clock only moving on. Signed the day before, decided in the period after five hours'
    // wait; a freelancer (as its register-as save says).
    at(-120);
    const signed = await readyToSign(server, nif(10_000_004));
    await server.app.auditLog.append({ actor: `application:${signed.id}`, action: 'onboarding.step_saved', subject: `application:${signed.id}`, details: { step: 'register-as', next: 'requirements-freelance' } }, new Date(now - HOUR));
    expect((await consentAndSign(server, signed.token)).status).toBe(200);
    decided = signed.id;
    // Lucía: the freelancer's path to her activity, then she stops; she signs up again later and resumes the
    // same application (one applicant).
    at(0);
    const lucia = await signUp('lucia.perez@example.com', nif(10_000_001));
    after(60);
    const token = await confirm(lucia, 'lucia.perez@example.com');
    after(180);
    await step('personal-info', token, PERSON);
    after(60);
    await step('phone', token, { telephoneCountry: 'ES', telephoneNumber: '612345678' });
    after(120);
    await step('phone/verify', token, { code: await lastCode(server.app, '+34612345678') });
    after(60);
    await step('person-type', token, { personType: 'freelance' });
    after(720);
    expect(await step('legalperson/freelance', token, ACTIVITY)).toMatchObject({ next: 'fiscal-address' });
    at(25);
    await confirm(await signUp('lucia.perez@example.com', nif(10_000_001)), 'lucia.perez@example.com');
    // Pierre lives in France: turned away after personal-info.
    at(30);
    const pierre = await signUp('pierre.martin@example.com', nif(10_000_002));
    after(60);
    const pierreToken = await confirm(pierre, 'pierre.martin@example.com');
    after(240);
    expect(await step('personal-info', pierreToken, { ...PERSON, firstName: 'Pierre', residenceCountry: 'FR' })).toMatchObject({ next: 'forbidden-user' });
    // Never types the e-mail code.
    at(40);
    await signUp('nunca.confirma@example.com', nif(10_000_003));
    at(180);
    // The review's helpers take a server with a moving clock; this one's is the test's own.
    await approveApplication(reviewDependenciesOf({ ...server, clock: { offsetMs: 0 } }), signed.id, 'marta', new Date(now));

    // Written to the log. Freelancers: one signed and approved an hour later, one stopped at the tax step and
    // expired, one stopped on the checklist.
    const start = (minutes: number) => from.getTime() + minutes * MINUTE;
    await scripted('freelance', start(60), [...shared(30, 100, 40, 20, 10), ['your-activity', 200], ['fiscal-address', 50], ['tax-registration-income', 300], ['tell-us-more-freelance', 100], ['divilo-password', 60], ['check-identity', 120], ['check-identity-waiting', 600], ['docu-sign', 300], ['approved', 3600]]);
    await scripted('freelance', start(120), [...shared(90, 200, 60, 40, 20), ['your-activity', 400], ['fiscal-address', 70], ['expired', 40 * 86_400]]);
    await scripted('freelance', start(200), shared(40, 120, 30, 30, 30));
    // Companies: one signed and rejected two hours later, one of a type the bank does not serve, one that
    // chose freelance first, then company, and stopped after about-company.
    await scripted('company', start(300), [...shared(50, 100, 50, 50, 50), ...COMPANY_STEPS.map((id): [string, number] => [id, 100]), ...tail(100), ['rejected', 7200]]);
    await scripted('company', start(400), [...shared(70, 300, 70, 70, 70), ['about-company', 500, 'company-error']]);
    await scripted('company', start(500), [...shared(80, 80, 80, 80, 80).map(([id, seconds]): [string, number, string?] => [id, seconds, id === 'register-as' ? 'requirements-freelance' : undefined]), ['register-as', 100], ['about-company', 100]]);
    // A customer signing up again; one who signed up just before the period, one just before its end (the code
    // typed after it), one at its end.
    await scripted('', start(600), [['already-exists', 45]]);
    await scripted('freelance', start(-1), shared(30, 100, 40, 20, 10));
    await scripted('', to.getTime() - MINUTE, [['reg-code', 120]]);
    await scripted('', to.getTime(), [['reg-code', 10]]);
    // Decisions outside the period, of applications signed ten hours before it (90 s after their sign-up): one at
    // its end, one a second before its start.
    await scripted('freelance', start(-600), [...shared(10, 10, 10, 10, 10), ...tail(10), ['approved', 34 * 3600 - 90]]);
    await scripted('company', start(-600), [...shared(10, 10, 10, 10, 10), ...tail(10), ['rejected', 10 * 3600 - 91]]);
  });

  const row = (answer: Funnel, id: StepId) => {
    const found = answer.steps.find((candidate) => candidate.step === id);
    if (!found) throw new Error(`${id} is not in the funnel`);
    return [found.reached, found.stoppedHere, found.medianSeconds];
  };

  it('freelance: reached, stopped and median per step of the path, in journey order; the decisions and their wait', async () => {
    const answer = await funnel('freelance');
    expect(answer).toMatchObject({ from, to, path: 'freelance', started: 4 });
    expect(answer.steps.map((entry) => entry.step)).toEqual(journey({ personType: 'freelance' }).map((entry) => entry.id));
    expect(Object.fromEntries(answer.steps.map((entry) => [entry.step, [entry.reached, entry.stoppedHere, entry.medianSeconds]]))).toEqual({
      signUp: [4, 0, null],
      'reg-code': [4, 0, 50],
      'personal-info': [4, 0, 150],
      'contact-phone': [4, 0, 50],
      'confirm-telephone': [4, 0, 35],
      'register-as': [4, 0, 25],
      // A checklist: passed by saving the step after it; who saved nothing after choosing the path stands on it.
      'requirements-freelance': [3, 1, null],
      // Timed from register-as, the checklist's reading included.
      'your-activity': [3, 0, 400],
      'fiscal-address': [2, 1, 60],
      'tax-registration-income': [1, 1, 300],
      'tell-us-more-freelance': [1, 0, 100],
      'divilo-password': [1, 0, 60],
      'check-identity': [1, 0, 120],
      'check-identity-waiting': [1, 0, 600],
      'docu-sign': [1, 0, 300],
      welcome: [1, 0, null],
    });
    // Decided in the period: the one signed in it (an hour) and the one signed the day before (five hours).
    expect(answer.decisions).toEqual([
      { decision: 'approved', count: 2, medianWaitSeconds: 3 * 3600 },
      { decision: 'rejected', count: 0, medianWaitSeconds: null },
    ]);
  });

  it('company: a refused company is turned away, not stopped; a changed path counts as the last one chosen', async () => {
    const answer = await funnel('company');
    expect(answer.started).toBe(3);
    expect(answer.steps.map((entry) => entry.step)).toEqual(journey({ personType: 'company' }).map((entry) => entry.id));
    expect(row(answer, 'register-as')).toEqual([3, 0, 70]);
    expect(row(answer, 'requirements-company')).toEqual([3, 0, null]);
    // The one who changed path: timed from the first register-as save (100 + 100 s).
    expect(row(answer, 'about-company')).toEqual([3, 0, 200]);
    expect(row(answer, 'about-company-info')).toEqual([1, 1, 100]);
    expect(row(answer, 'tell-us-more-company')).toEqual([1, 0, 100]);
    expect(row(answer, 'welcome')).toEqual([1, 0, null]);
    expect(answer.steps.reduce((sum, entry) => sum + entry.stoppedHere, 0)).toBe(1);
    expect(answer.decisions).toEqual([
      { decision: 'approved', count: 0, medianWaitSeconds: null },
      { decision: 'rejected', count: 1, medianWaitSeconds: 7200 },
    ]);
  });

  it('all: both paths and those who chose none; the period’s edges; each sign-up once', async () => {
    const answer = await funnel('all');
    // 4 freelancers, 3 companies, Pierre, the code never typed, the customer, the one just before the end.
    expect(answer.started).toBe(11);
    // Every step of either path once, each path's in its order.
    const shown = answer.steps.map((entry) => entry.step);
    for (const personType of ['freelance', 'company'] as const) {
      const path = journey({ personType }).map((entry) => entry.id);
      expect(shown.filter((id) => path.includes(id))).toEqual(path);
    }
    expect(new Set(shown).size).toBe(shown.length);
    expect(shown).toHaveLength(new Set([...journey({ personType: 'freelance' }), ...journey({ personType: 'company' })].map((entry) => entry.id)).size);
    expect(row(answer, 'signUp')).toEqual([11, 0, null]);
    // The customer typed the right code (then turned away); the code typed after the period's end still counts.
    expect(row(answer, 'reg-code')).toEqual([10, 1, 60]);
    expect(row(answer, 'personal-info')).toEqual([8, 1, 150]);
    // Pierre went no further, and is not counted as stopping there.
    expect(row(answer, 'contact-phone')).toEqual([7, 0, 60]);
    expect(row(answer, 'register-as')).toEqual([7, 0, 50]);
    expect(row(answer, 'requirements-freelance')).toEqual([3, 1, null]);
    expect(row(answer, 'requirements-company')).toEqual([3, 0, null]);
    expect(row(answer, 'divilo-password')).toEqual([2, 0, 80]);
    expect(row(answer, 'check-identity-waiting')).toEqual([2, 0, 350]);
    expect(row(answer, 'welcome')).toEqual([2, 0, null]);
    expect(answer.steps.reduce((sum, entry) => sum + entry.stoppedHere, 0)).toBe(6);
    expect(answer.decisions).toEqual([
      { decision: 'approved', count: 2, medianWaitSeconds: 3 * 3600 },
      { decision: 'rejected', count: 1, medianWaitSeconds: 7200 },
    ]);
  });

  it('an empty period: every step at nought, no decision', async () => {
    const answer = await funnel('company', { from: new Date(from.getTime() - 30 * DAY), to: new Date(from.getTime() - 29 * DAY) });
    expect(answer.started).toBe(0);
    expect(answer.steps).toHaveLength(journey({ personType: 'company' }).length);
    expect(answer.steps.every((entry) => entry.reached === 0 && entry.stoppedHere === 0 && entry.medianSeconds === null)).toBe(true);
    expect(answer.decisions.map((entry) => [entry.count, entry.medianWaitSeconds])).toEqual([
      [0, null],
      [0, null],
    ]);
  });

  it('the steps come from the journey it is given', async () => {
    const answer = await funnelOf(server.app.db, { from, to, path: 'freelance' }, (answers) => journey(answers).filter((entry) => entry.id !== 'fiscal-address'));
    expect(answer.steps.map((entry) => entry.step)).not.toContain('fiscal-address');
    // Lucía stood on the step that is gone: now on the next one; tax is timed from the activity.
    expect(row(answer, 'tax-registration-income')).toEqual([1, 2, 350]);
  });

  it('the applications housekeeping removes are still counted where they stopped', async () => {
    const before = await funnel('all');
    const removed = await expireInactiveApplications(
      { db: server.app.db, identity: server.app.identity, auditLog: server.app.auditLog, storage: server.app.documents },
      new Date(from.getTime() + 60 * DAY),
    );
    expect(removed).toBe(2);
    expect(await server.app.applications.find(decided)).toBeDefined();
    expect(await funnel('all')).toEqual(before);
  });

  it('says nothing of who the applicants are: no e-mail, no id, no name, no ID document', async () => {
    const answers = JSON.stringify(await Promise.all((['all', 'freelance', 'company'] as const).map((path) => funnel(path))));
    const subjects = await server.app.db.selectFrom('audit_log').select('subject').distinct().execute();
    const ids = subjects.map(({ subject }) => subject.slice(subject.indexOf(':') + 1)).filter((id) => id.length > 8);
    expect(ids.length).toBeGreaterThan(10);
    for (const secret of [...ids, ...emails, 'Lucía', 'Pierre', 'Pérez', nif(10_000_001), nif(10_000_004), 'marta']) expect(answers).not.toContain(secret);
  });
});
