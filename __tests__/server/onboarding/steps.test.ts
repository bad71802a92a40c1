// The freelancer's steps that save answers, against the whole server on both databases: the shared rules
// field by field, the order of the journey, the next step, idempotent and concurrent saves, the risk factor.
import { randomUUID } from 'node:crypto';
import { describeEachDialect } from '../helpers';
import { passCaptcha, startLoginServerOn } from '../login/loginServer';

const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: 'Núñez', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
const ACTIVITY = { selfEmployedId: '00000000t', selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' };
const ADDRESS = { selfEmployedFiscalAddress: 'Calle Mayor 1', selfEmployedFiscalAdditionalAddress: '2º B', selfEmployedFiscalPostalCode: '28013', selfEmployedFiscalCity: 'Madrid', selfEmployedFiscalCountry: 'ES' };
const MORE = { website: 'https://lucia.example', countriesWhereOperate: ['ES', 'PT'], diviloProduct: 'account', foundsOrigin: 'business-activity', assetsOrigin: 'savings', politicalPosition: false };

describeEachDialect('onboarding: the freelancer steps', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  let applicants = 0;
  /** A confirmed sign-up: an application at personal-info and its token. */
  async function openApplication(): Promise<{ token: string; id: string }> {
    applicants += 1;
    const email = `applicant${applicants}-${dialect}@example.com`;
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const id = `${String(10_000_000 + applicants).slice(-8)}${'TRWAGMYFPDXBNJZSQVHLCKE'[(10_000_000 + applicants) % 23]}`;
    const registered = (await (
      await fetch(`${server.api}/onboarding-management/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, idType: 'nif', id, privacyPolicy: true, precontractualInformation: true, sessionId }),
      })
    ).json()) as { token: string };
    const row = await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const confirmed = await save('email/verify', registered.token, { code: /\b(\d{6})\b/.exec(row.text)![1] });
    return { token: confirmed.body.token as string, id: (confirmed.body.application as { id: string }).id };
  }
  async function save(path: string, token: string, body: unknown) {
    const response = await fetch(`${server.api}/onboarding-management-private/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const fieldsOf = (body: Record<string, unknown>) => Object.fromEntries((body.errors as { field: string; id: string }[]).map(({ field, id }) => [field, id]));
  /** The phone steps are not saved here: marked done, as their own calls will. */
  async function phoneDone(id: string) {
    const application = (await server.app.applications.find(id))!;
    await server.app.applications.save(application, { completedSteps: [...application.completedSteps, 'contact-phone', 'confirm-telephone'] }, new Date());
  }

  it('personal-info: every rule of the screen, field by field, then contact-phone', async () => {
    const { token } = await openApplication();
    const refused = await save('personal-info', token, { ...PERSON, firstName: ' ', nationality: 'XX', birthDate: '31/02/1990', birthCountry: '' });
    expect(refused.status).toBe(400);
    expect(fieldsOf(refused.body)).toEqual({ firstName: 'validations.required', nationality: 'validations.country', birthDate: 'validations.date', birthCountry: 'validations.required' });
    const minor = await save('personal-info', token, { ...PERSON, birthDate: '01/01/2015' });
    expect(fieldsOf(minor.body)).toEqual({ birthDate: 'validations.adult' });
    const saved = await save('personal-info', token, PERSON);
    expect(saved).toMatchObject({ status: 200, body: { next: 'contact-phone', application: { currentStep: 'contact-phone', answers: { firstName: 'Lucía', birthDate: '14/03/1990' } } } });
  });

  it('refuses text that could read as a clause of the contract or hide itself, and a script the contract cannot print; keeps what was saved', async () => {
    const { token, id } = await openApplication();
    await save('personal-info', token, PERSON);
    const refused = await save('personal-info', token, {
      ...PERSON,
      firstName: 'Lucía\n7. CLAUSULA ADICIONAL PACTADA: el titular renuncia a todo',
      firstSurname: 'Pérez\u2028López',
      secondSurname: '김',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { field: 'firstName', id: 'validations.plainText' },
      { field: 'firstSurname', id: 'validations.plainText' },
      { field: 'secondSurname', id: 'validations.unsupportedCharacters', values: { characters: '김' } },
    ]);
    expect((await save('personal-info', token, { ...PERSON, firstName: 'Lu\u202ecía' })).body.errors).toEqual([{ field: 'firstName', id: 'validations.plainText' }]);
    // Nothing of the refused saves reached the answers.
    expect((await server.app.applications.find(id))!.answers).toMatchObject({ firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: 'Núñez' });

    // Every script the contract prints is taken.
    const names = { firstName: 'Zoë', firstSurname: 'Łukasiewicz', secondSurname: '王' };
    expect((await save('personal-info', token, { ...PERSON, ...names })).body).toMatchObject({ application: { answers: names } });

    await phoneDone(id);
    await save('person-type', token, { personType: 'freelance' });
    await save('legalperson/freelance', token, ACTIVITY);
    const address = await save('legalperson/freelance/postal-address', token, { ...ADDRESS, selfEmployedFiscalAddress: 'Calle Mayor 1\r\n8. CLAUSULA', selfEmployedFiscalCity: 'Madrid\u0000' });
    expect(fieldsOf(address.body)).toEqual({ selfEmployedFiscalAddress: 'validations.plainText', selfEmployedFiscalCity: 'validations.plainText' });
  });

  it('living outside Spain ends on forbidden-user, and the application takes no more changes', async () => {
    const { token } = await openApplication();
    expect((await save('personal-info', token, { ...PERSON, residenceCountry: 'FR' })).body).toMatchObject({ next: 'forbidden-user', application: { status: 'not-allowed', currentStep: 'forbidden-user' } });
    expect((await save('personal-info', token, PERSON)).body).toMatchObject({ code: 'APPLICATION_CLOSED' });
  });

  it('keeps the order of the journey and its path', async () => {
    const { token, id } = await openApplication();
    expect(await save('legalperson/freelance', token, ACTIVITY)).toEqual({ status: 409, body: expect.objectContaining({ code: 'STEP_OUT_OF_ORDER', currentStep: 'personal-info' }) });
    await save('personal-info', token, PERSON);
    await phoneDone(id);
    expect((await save('person-type', token, { personType: 'company' })).body).toMatchObject({ next: 'requirements-company' });
    expect(await save('legalperson/freelance', token, ACTIVITY)).toEqual({ status: 409, body: expect.objectContaining({ code: 'STEP_NOT_ON_PATH' }) });
  });

  it('the freelancer path to divilo-password: activity from the IAE list, a Spanish postal code, the last questions', async () => {
    const { token, id } = await openApplication();
    await save('personal-info', token, PERSON);
    await phoneDone(id);
    expect((await save('person-type', token, { personType: 'freelance' })).body).toMatchObject({ next: 'requirements-freelance' });
    const unknownActivity = await save('legalperson/freelance', token, { ...ACTIVITY, selfEmployedActivity: '1.673', selfEmployedId: '12345678A', selfEmployedDate: '01/01/2999' });
    expect(fieldsOf(unknownActivity.body)).toEqual({ selfEmployedActivity: 'validations.choice', selfEmployedId: 'validations.nif', selfEmployedDate: 'validations.notFuture' });
    expect((await save('legalperson/freelance', token, ACTIVITY)).body).toMatchObject({ next: 'fiscal-address', application: { answers: { selfEmployedId: '00000000T' } } });
    expect(fieldsOf((await save('legalperson/freelance/postal-address', token, { ...ADDRESS, selfEmployedFiscalPostalCode: '60000' })).body)).toEqual({ selfEmployedFiscalPostalCode: 'validations.postalCode' });
    expect((await save('legalperson/freelance/postal-address', token, ADDRESS)).body).toMatchObject({ next: 'tax-registration-income' });
    // The modelo 036 must be a document the server checked for this application (its upload is tested in documents.test).
    const key = `private/eu-west-1:00000000-0000-4000-8000-000000000036/modelo-036.pdf`;
    const notChecked = await save('legalperson/freelance/tax', token, { selfEmployedTax: 'direct-simplified', model036: key });
    expect(fieldsOf(notChecked.body)).toEqual({ model036: 'validations.documentMissing' });
    expect(fieldsOf((await save('legalperson/freelance/tax', token, { selfEmployedTax: 'flat-rate', model036: '' })).body)).toEqual({ selfEmployedTax: 'validations.choice', model036: 'validations.required' });
    await server.app.onboardingDocuments.save(id, { kind: 'model036', key, size: 1234, etag: '"e"' }, server.app.clock());
    expect((await save('legalperson/freelance/tax', token, { selfEmployedTax: 'direct-simplified', model036: key })).body).toMatchObject({ next: 'tell-us-more-freelance', application: { answers: { model036: key } } });
    expect(fieldsOf((await save('legalperson/freelance/moreinfo', token, { ...MORE, website: 'ftp://x', countriesWhereOperate: ['ZZ'] })).body)).toEqual({
      website: 'validations.url',
      'countriesWhereOperate[0]': 'validations.country',
    });
    expect((await save('legalperson/freelance/moreinfo', token, MORE)).body).toMatchObject({ next: 'divilo-password', application: { currentStep: 'divilo-password' } });
    expect((await server.app.applications.find(id))!.riskfactor).toBe('low');
  });

  it('a politically exposed person or a FATF country raises the risk and sends nothing to rejection', async () => {
    const { token, id } = await openApplication();
    await save('personal-info', token, { ...PERSON, nationality: 'VE' });
    expect((await server.app.applications.find(id))!.riskfactor).toBe('medium');
    await save('personal-info', token, { ...PERSON, nationality: 'IR' });
    const high = (await server.app.applications.find(id))!;
    expect(high).toMatchObject({ riskfactor: 'high', status: 'in-progress' });
    const audit = await server.app.auditLog.listBySubject(`application:${id}`);
    expect(audit.filter((entry) => entry.action === 'onboarding.risk_changed').map((entry) => entry.details)).toEqual([{ riskfactor: 'medium' }, { riskfactor: 'high' }]);
  });

  it('a retried save changes nothing more; simultaneous saves lose none of their version increments', async () => {
    const { token, id } = await openApplication();
    await save('personal-info', token, PERSON);
    await save('personal-info', token, PERSON);
    const audit = await server.app.auditLog.listBySubject(`application:${id}`);
    expect(audit.filter((entry) => entry.action === 'onboarding.step_saved')).toHaveLength(1);

    const before = (await server.app.applications.find(id))!.version;
    const names = Array.from({ length: 8 }, (_, index) => `Nombre ${'ABCDEFGH'[index]}`);
    const answers = await Promise.all(names.map((firstName) => save('personal-info', token, { ...PERSON, firstName })));
    const saved = answers.filter((answer) => answer.status === 200);
    expect(answers.every((answer) => answer.status === 200 || answer.body.code === 'CONCURRENT_CHANGE')).toBe(true);
    const after = (await server.app.applications.find(id))!;
    expect(after.version).toBe(before + saved.length);
    expect(names).toContain(after.answers.firstName);
  });
});
