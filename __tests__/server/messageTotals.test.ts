// The bank-wide message totals, which an attacker must not be able to spend for everyone, on both databases:
// customers' login SMS have a total sign-ups cannot reach; applicants' SMS are budgeted per number range and per
// country, atomically; an e-mail address that never entered its code gets one e-mail an hour, counted apart
// from the total of real applicants; and each total's use is a metric and a log line the alarms read.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../server/plugins/demoCustomers';
import { atThePhoneStep, clientOf, codeIn, newClient, refusals, sentTo, type Server } from './budgetClients';
import { describeEachDialect, logCollector } from './helpers';
import { passCaptcha, signIn, startLoginServerOn } from './login/loginServer';

const [ana] = DEMO_CUSTOMERS;

/** Budgets nobody reaches but the one a test is about (each test sets its own). */
const ROOMY = {
  TRUST_PROXY: 'true',
  CODE_RESEND_SECONDS: '30',
  SMS_BUDGET_PER_RECIPIENT: '100',
  SMS_BUDGET_PER_PERSON: '100',
  SMS_BUDGET_PER_CLIENT: '100',
  EMAIL_BUDGET_PER_RECIPIENT: '100',
  EMAIL_BUDGET_PER_PERSON: '100',
  EMAIL_BUDGET_PER_CLIENT: '100',
  LOG_LEVEL: 'info',
};

let documents = 0;
/** A NIF nobody else in the file has: each one opens an application of its own. */
const newNif = () => {
  documents += 1;
  const number = 30_000_000 + documents;
  return `${number}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
};

/** `count` applications at the phone step, each from a client address of its own. */
async function applicationsAtThePhoneStep(server: Server, count: number, label: string) {
  const applications: { client: string; token: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    const client = newClient();
    applications.push({ client, token: await atThePhoneStep(server, client, `${label}-${index}@example.com`, newNif()) });
  }
  return applications;
}

const phone = (server: Server, application: { client: string; token: string }, telephoneCountry: string, telephoneNumber: string) =>
  clientOf(server, application.client).post('onboarding-management-private/phone', application.token, { telephoneCountry, telephoneNumber });

const budgetRow = (server: Server, bucket: string) => server.app.db.selectFrom('message_budgets').select(['sent', 'window_ends_at']).where('bucket', '=', bucket).executeTakeFirst();

describeEachDialect('message totals: customers have their own', (dialect) => {
  const logs = logCollector();
  let server: Server;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { ...ROOMY, SMS_BUDGET_TOTAL: '3', SMS_BUDGET_CUSTOMERS_TOTAL: '5' }, { logStream: logs.stream });
  });
  afterAll(() => server.close());

  const login = async (client: string) => {
    const sessionId = randomUUID();
    const idToken = await signIn(server.base, ana.username, ana.password);
    await passCaptcha(server.api, sessionId);
    return clientOf(server, client).post('user-authorization-management/create-session', '', undefined, { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
  };

  it("sign-ups that spend the applicants' SMS total leave a customer's login SMS untouched; the customers' total is theirs alone", async () => {
    const applications = await applicationsAtThePhoneStep(server, 4, `throwaway-${dialect}`);
    // Numbers far apart: only the applicants' total stops them.
    const answers = [];
    for (const [index, application] of applications.entries()) answers.push(await phone(server, application, 'ES', `6${index + 1}1 000 00${index}`));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3].body).toMatchObject({ code: 'MESSAGE_BUDGET_EXCEEDED', retryAfterSeconds: expect.any(Number) });
    expect(answers[3].retryAfter).toBe(String(answers[3].body.retryAfterSeconds));

    // The customer still gets the login SMS, five times: the customers' total is 5.
    const client = newClient();
    const logins = [];
    for (let attempt = 0; attempt < 6; attempt += 1) logins.push(await login(client));
    expect(logins.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(logins[5].body).toMatchObject({ code: 'MESSAGE_BUDGET_EXCEEDED' });
    expect(Number(logins[5].retryAfter)).toBeGreaterThan(0);
    expect(await sentTo(server, ana.phone)).toHaveLength(5);
    const [, customersRefused] = (await refusals(server)).map((entry) => JSON.parse(entry.details!) as Record<string, unknown>);
    expect(customersRefused).toMatchObject({ purpose: 'login-code', refusedBy: 'total', counts: { total: { sent: 5, limit: 5 } } });

    // Recovery is an SMS to the customer: the same total, which is spent now.
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    expect((await clientOf(server, client).post('credentials-management/password', '', { userId: ana.username, sessionId })).status).toBe(200);
    for (let i = 0; i < 500 && (await refusals(server)).length < 3; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const recovery = JSON.parse((await refusals(server))[2].details!) as Record<string, unknown>;
    expect(recovery).toMatchObject({ purpose: 'recovery-code', refusedBy: 'total', counts: { total: { sent: 5, limit: 5 } } });
    expect(await sentTo(server, ana.phone)).toHaveLength(5);
  });

  it("reports each total's use: a gauge, and a log line at every tenth of its limit, never a number or a code", async () => {
    const uses = logs.entries().filter((entry) => entry.msg === 'message budget use');
    const customers = uses.map((entry) => entry.messageBudget as Record<string, unknown>).filter((use) => use.total === 'customers');
    expect(customers.map((use) => use.usedPercent)).toEqual([20, 40, 60, 80, 100]);
    expect(customers[3]).toEqual({ channel: 'sms', total: 'customers', sent: 4, limit: 5, usedPercent: 80 });
    const applicants = uses.map((entry) => entry.messageBudget as Record<string, unknown>).filter((use) => use.total === 'applicants');
    expect(applicants.map((use) => use.usedPercent)).toEqual([33, 66, 100]);
    const text = await server.app.metrics.text();
    expect(text).toMatch(/divilo_message_budget_used_percent\{[^}]*channel="sms"[^}]*total="customers"[^}]*\} 100/);
    expect(text).toMatch(/divilo_message_budget_used_percent\{[^}]*channel="sms"[^}]*total="applicants"[^}]*\} 100/);
    // The number as digits standing alone: a response time's decimals may hold the same run of digits.
    expect(logs.text()).not.toMatch(new RegExp(`(?<![\\d.])${ana.phone.slice(3)}(?!\\d)`));
  });
});

describeEachDialect('message totals: number ranges and countries', (dialect) => {
  let server: Server;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { ...ROOMY, SMS_BUDGET_TOTAL: '1000', SMS_BUDGET_PER_RANGE: '4', SMS_RANGE_WINDOW_SECONDS: '600', SMS_BUDGET_PER_COUNTRY: '3' });
  });
  afterAll(() => server.close());

  it('of twelve numbers sharing +34 612 345 asked at once by twelve applications, exactly four are texted; the range opens again after its window', async () => {
    const applications = await applicationsAtThePhoneStep(server, 12, `range-${dialect}`);
    const numbers = applications.map((_, index) => `612 345 ${String(100 + index)}`);
    const answers = await Promise.all(applications.map((application, index) => phone(server, application, 'ES', numbers[index])));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(8);
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 429, body: { code: 'MESSAGE_BUDGET_EXCEEDED', retryAfterSeconds: expect.any(Number) } });
      expect(answer.body.retryAfterSeconds).toBeGreaterThan(0);
      expect(answer.body.retryAfterSeconds).toBeLessThanOrEqual(600);
      expect(answer.retryAfter).toBe(String(answer.body.retryAfterSeconds));
    }
    const texted = (await Promise.all(numbers.map((number) => sentTo(server, `+34${number.replace(/ /g, '')}`)))).filter((sms) => sms.length > 0);
    expect(texted).toHaveLength(4);
    const [audited] = (await refusals(server)).map((entry) => JSON.parse(entry.details!) as Record<string, unknown>);
    expect(audited).toMatchObject({ channel: 'sms', purpose: 'phone-code', refusedBy: 'range', counts: { range: { sent: 4, limit: 4 } } });

    // Another range is not affected.
    const [other] = await applicationsAtThePhoneStep(server, 1, `range-other-${dialect}`);
    expect((await phone(server, other, 'ES', '612 346 100')).status).toBe(200);
    // The range's window over, a refused application's number is texted.
    server.clock.offsetMs += 601_000;
    const waiting = applications[answers.findIndex((answer) => answer.status === 429)];
    expect((await phone(server, waiting, 'ES', '612 345 999')).status).toBe(200);
  });

  it('of five Portuguese numbers in five ranges asked at once, exactly three are texted (three per country); Spain is counted apart', async () => {
    const applications = await applicationsAtThePhoneStep(server, 6, `country-${dialect}`);
    const answers = await Promise.all(applications.slice(0, 5).map((application, index) => phone(server, application, 'PT', `91${index} 234 567`)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.code)).toEqual(['MESSAGE_BUDGET_EXCEEDED', 'MESSAGE_BUDGET_EXCEEDED']);
    expect((await budgetRow(server, 'sms:country:351'))?.sent).toBe(3);
    expect((await phone(server, applications[5], 'ES', '633 000 001')).status).toBe(200);
  });
});

describeEachDialect('message totals: e-mail addresses never proven', (dialect) => {
  let server: Server;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { ...ROOMY, EMAIL_BUDGET_TOTAL: '12', EMAIL_BUDGET_UNPROVEN_PER_RECIPIENT: '1', EMAIL_BUDGET_UNPROVEN_TOTAL: '1000' });
  });
  afterAll(() => server.close());

  it('twelve made-up addresses cannot spend the e-mail total: an applicant whose address proved itself still gets a code', async () => {
    const real = `real-${dialect}@example.com`;
    const nif = newNif();
    const first = await clientOf(server, newClient()).register(real, nif);
    expect(first.status).toBe(200);
    const [mail] = await sentTo(server, real);
    const confirmed = await clientOf(server, newClient()).post('onboarding-management-private/email/verify', first.body.token as string, { code: codeIn(mail.text) });
    expect(confirmed.status).toBe(200);

    const madeUp = Array.from({ length: 12 }, (_, index) => `nobody-${index}-${dialect}@example.com`);
    const signUps = [];
    for (const email of madeUp) signUps.push(await clientOf(server, newClient()).register(email, newNif()));
    expect(signUps.map((answer) => answer.status)).toEqual(Array<number>(12).fill(200));

    // The applicant comes back to resume: the e-mail goes, and a resend after the cooldown goes too.
    const again = await clientOf(server, newClient()).register(real, nif);
    expect(again.status).toBe(200);
    server.clock.offsetMs += 31_000;
    expect((await clientOf(server, newClient()).post('onboarding-management-private/email/resend', again.body.token as string)).status).toBe(200);
    expect(await sentTo(server, real)).toHaveLength(3);
    // Only the proven address's e-mails moved the e-mail total; the made-up ones (and the first) count apart.
    expect((await budgetRow(server, 'email:total'))?.sent).toBe(2);
    expect((await budgetRow(server, 'email:total:unproven'))?.sent).toBe(13);
  });

  it('a made-up address gets one e-mail an hour: its resend, and a new sign-up with it, are refused until the hour is over', async () => {
    const email = `once-${dialect}@example.com`;
    const registered = await clientOf(server, newClient()).register(email, newNif());
    expect(registered.status).toBe(200);
    server.clock.offsetMs += 31_000;
    const resend = await clientOf(server, newClient()).post('onboarding-management-private/email/resend', registered.body.token as string);
    expect(resend).toMatchObject({ status: 429, body: { code: 'MESSAGE_BUDGET_EXCEEDED' } });
    expect(resend.body.retryAfterSeconds).toBeGreaterThan(3500);
    expect(resend.body.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(resend.retryAfter).toBe(String(resend.body.retryAfterSeconds));
    expect((await clientOf(server, newClient()).register(email, newNif())).status).toBe(429);
    expect(await sentTo(server, email)).toHaveLength(1);

    server.clock.offsetMs += 3600_000;
    expect((await clientOf(server, newClient()).register(email, newNif())).status).toBe(200);
    expect(await sentTo(server, email)).toHaveLength(2);
  });

  it('of eight simultaneous sign-ups with one new address, exactly one e-mail is sent', async () => {
    const email = `burst-${dialect}@example.com`;
    const answers = await Promise.all(Array.from({ length: 8 }, () => clientOf(server, newClient()).register(email, newNif())));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(7);
    expect(await sentTo(server, email)).toHaveLength(1);
  });
});
