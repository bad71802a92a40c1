// Asking an applicant for more information, end to end: the bank names steps of a signed application's business;
// the applicant is e-mailed the words in their language, signs up again to resume, sees what was asked on those
// steps only, goes from one to the next and signs again; the application then waits for the bank once more, its
// first contract kept. Documents of the steps not reopened stay as they were relied on.
import { evidenceFrozen } from '../../../server/services/evidence';
import { describeEachDialect } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';
import { call, consentAndSign, readyToSign, signUpAndConfirm } from '../onboarding/signing';
import { nextDni, signedInStaff, staffCall } from './staff';

jest.setTimeout(120_000);


describeEachDialect('the back office: asking the applicant for more information', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    // Many sign-ins and calls from one address in a minute: more than the default limit lets through.
    server = await startLoginServerOn(dialect, { RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  async function signed(language: 'es' | 'en' = 'es') {
    const dni = nextDni();
    const { id, token } = await readyToSign(server, dni, { language });
    expect((await consentAndSign(server, token)).status).toBe(200);
    return { id, dni, email: (await server.app.applications.find(id))!.email };
  }
  const lastEmailTo = async (to: string) => (await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', to).where('purpose', '=', 'notice').orderBy('id', 'desc').executeTakeFirst()) ?? undefined;

  it('reopens the steps named, e-mails the applicant, and takes them back through those steps only to sign again', async () => {
    const { id, dni, email } = await signed('es');
    const reviewer = await signedInStaff(server, ['reviewer']);
    const ask = (body: unknown) => staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/more-info`, body);

    expect(await ask({ steps: ['personal-info'], message: 'x' })).toMatchObject({ status: 400, body: { code: 'STEP_NOT_REOPENABLE' } });
    expect(await ask({ steps: ['about-company'], message: 'x' })).toMatchObject({ status: 400, body: { code: 'STEP_NOT_REOPENABLE' } });
    expect(await ask({ steps: ['fiscal-address'] })).toMatchObject({ status: 400, body: { code: 'REASON_REQUIRED' } });
    expect(await ask({ steps: ['fiscal-address'], templateId: 'risk-policy' })).toMatchObject({ status: 400, body: { code: 'TEMPLATE_NOT_FOUND' } });
    expect((await server.app.applications.find(id))!.status).toBe('pending-review');

    const asked = await ask({ steps: ['fiscal-address'], templateId: 'answers-to-check', message: 'El código postal no corresponde a la ciudad.' });
    expect(asked).toMatchObject({ status: 200, body: { status: 'in-progress', steps: ['fiscal-address'] } });
    const notice = (await lastEmailTo(email))!;
    expect(notice.text).toContain('Necesitamos que revises algunos de los datos que nos diste.');
    expect(notice.text).toContain('El código postal no corresponde a la ciudad.');
    expect(notice.text).toContain(`${server.config.publicUrl}/signUp`);

    // The bank keeps the contract signed first; the page shows it, and the request.
    expect(await server.app.contracts.find(id)).toBeUndefined();
    const page = await staffCall(server, reviewer.cookie, 'GET', `/applications/${id}`);
    expect(page.body.supersededContracts).toHaveLength(1);
    expect(page.body.review).toMatchObject({ awaiting: null, moreInfo: { steps: ['fiscal-address'], requestedBy: `staff:${reviewer.username}` } });
    expect(page.body.reopenable).toEqual(['your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance']);
    const queue = (await staffCall(server, reviewer.cookie, 'GET', '/applications')).body.applications as { id: string }[];
    expect(queue.map((entry) => entry.id)).not.toContain(id);

    // The applicant signs up again with the same e-mail and ID document: the application resumes where it reopened.
    const resumed = await signUpAndConfirm(server, email, dni);
    expect(resumed.body).toMatchObject({ next: 'fiscal-address' });
    const token = resumed.body.token as string;
    const application = (resumed.body.application ?? {}) as { currentStep?: string; requestedChanges?: unknown; answers?: Record<string, unknown> };
    expect(application.currentStep).toBe('fiscal-address');
    expect(application.requestedChanges).toEqual({ steps: ['fiscal-address'], text: expect.stringContaining('El código postal no corresponde a la ciudad.') });
    expect(application.answers).not.toHaveProperty('review');

    const saved = await call(server, token, 'POST', 'legalperson/freelance/postal-address', {
      selfEmployedFiscalAddress: 'Calle Mayor 2',
      selfEmployedFiscalPostalCode: '28013',
      selfEmployedFiscalCity: 'Madrid',
      selfEmployedFiscalCountry: 'ES',
    });
    expect(saved).toMatchObject({ status: 200, body: { next: 'docu-sign' } });
    expect(await consentAndSign(server, token)).toMatchObject({ status: 200 });

    const again = (await server.app.applications.find(id))!;
    expect(again.status).toBe('pending-review');
    expect(again.answers.selfEmployedFiscalAddress).toBe('Calle Mayor 2');
    expect(await server.app.contracts.find(id)).toBeDefined();
    const waiting = (await staffCall(server, reviewer.cookie, 'GET', '/applications')).body.applications as { id: string; awaiting: string }[];
    expect(waiting.find((entry) => entry.id === id)).toMatchObject({ awaiting: 'decision' });
    const approver = await signedInStaff(server, ['approver']);
    expect(await staffCall(server, approver.cookie, 'POST', `/applications/${id}/approve`)).toMatchObject({ status: 200, body: { status: 'approved' } });
    const trail = (await server.app.db.selectFrom('audit_log').select('action').where('subject', '=', `application:${id}`).orderBy('id').execute()).map((entry) => entry.action);
    expect(trail.filter((action) => action === 'onboarding.contract_signed')).toHaveLength(2);
    expect(trail).toContain('onboarding.review_more_info_requested');
  });

  it('lets the applicant change the steps named only: not the others, their phone or their path, and sends them no phone code', async () => {
    const { id, dni, email } = await signed();
    const reviewer = await signedInStaff(server, ['reviewer']);
    expect((await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/more-info`, { steps: ['fiscal-address'], message: 'Revisa la dirección.' })).status).toBe(200);
    const token = (await signUpAndConfirm(server, email, dni)).body.token as string;
    const before = (await server.app.applications.find(id))!;
    const sentBefore = await server.app.db.selectFrom('outbox').select('id').where('purpose', '!=', 'notice').execute();

    const notReopened = { status: 409, body: expect.objectContaining({ code: 'STEP_NOT_REOPENED', currentStep: 'fiscal-address' }) };
    const activity = { selfEmployedId: dni, selfEmployedActivity: '1.673.2', selfEmployedDate: '01/03/2020', selfEmployedAtaCode: '', promotionalCode: '' };
    expect(await call(server, token, 'POST', 'legalperson/freelance', activity)).toMatchObject(notReopened);
    expect(await call(server, token, 'POST', 'phone', { telephoneCountry: 'ES', telephoneNumber: '622333444' })).toMatchObject(notReopened);
    expect(await call(server, token, 'POST', 'phone/resend')).toMatchObject(notReopened);
    expect(await call(server, token, 'POST', 'person-type', { personType: 'company' })).toMatchObject(notReopened);

    const after = (await server.app.applications.find(id))!;
    expect({ answers: after.answers, personType: after.personType, completedSteps: after.completedSteps }).toEqual({ answers: before.answers, personType: before.personType, completedSteps: before.completedSteps });
    expect(await server.app.db.selectFrom('outbox').select('id').where('purpose', '!=', 'notice').execute()).toEqual(sentBefore);
  });

  it('keeps the documents of the steps not reopened as they were relied on', async () => {
    const { id } = await signed();
    const reviewer = await signedInStaff(server, ['reviewer']);
    expect((await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/more-info`, { steps: ['fiscal-address'], message: 'Revisa la dirección.' })).status).toBe(200);
    const application = (await server.app.applications.find(id))!;
    expect(evidenceFrozen(application, 'model036')).toBe(true);
    expect(evidenceFrozen(application, 'selfie')).toBe(true);
    expect(evidenceFrozen({ ...application, answers: { ...application.answers, review: { moreInfo: { steps: ['tax-registration-income'] } } } }, 'model036')).toBe(false);
  });

  it('is only for a signed application, and one of two staff acting at once wins', async () => {
    const { id } = await signed();
    const [reviewer, approver] = [await signedInStaff(server, ['reviewer']), await signedInStaff(server, ['approver'])];
    const answers = await Promise.all([
      staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/more-info`, { steps: ['fiscal-address'], message: 'Revisa la dirección.' }),
      staffCall(server, approver.cookie, 'POST', `/applications/${id}/approve`),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const status = (await server.app.applications.find(id))!.status;
    expect(['in-progress', 'approved']).toContain(status);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect(refused.body.code).toBe(status === 'approved' ? 'ALREADY_DECIDED' : 'NOT_DECIDABLE');
    expect(await staffCall(server, reviewer.cookie, 'POST', `/applications/${id}/more-info`, { steps: ['fiscal-address'], message: 'Otra vez.' })).toMatchObject({ status: 409 });
  });
});
