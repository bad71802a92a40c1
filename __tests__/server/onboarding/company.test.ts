// The company path's steps against the whole server on both databases: the entity types served and refused,
// the legal forms of each, the documents the server checked, the first-year rule of the modelo 200 on the
// server's clock, the owners (25% and 25.01%, over 100, twice, a bad ID, administrators, a PEP raising the risk),
// idempotent saves, the contract naming the company, and `npm run admin show` with its document links.
import { adminProgram, LINK_WITHHELD } from '../../../scripts/admin';
import { pageTexts } from '../pdfInspection';
import { plainPdf } from '../pdfs';
import { renderContract } from '../../../server/services/contract';
import { loadContractTemplates } from '../../../server/services/contractTemplates';
import { applicantCredentials, uploadDocument } from '../../../src/documentStorage/uploadDocument';
import { describeEachDialect } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';
import { reviewDependenciesOf } from './reviewDependencies';

const BEFORE_COMPANY = ['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as'];
const INFO = { socialDenomination: 'Martín Software S.L.', legalForm: 'SL', cnae: '62.10', foundedDate: '15/06/2019' };
const ADDRESS = { companyAddress: 'Paseo de la Castellana 100', companyAdditionalAddress: '', companyPostalCode: '28046', companyCity: 'Madrid', companyCountry: 'ES' };
const NUMBERS = { employeeNumber: '12', bussinesVolume: '850000' };
const MORE = {
  website: '',
  countriesWhereOperate: ['ES', 'PT'],
  establishedAbroad: false,
  operativeCountries: [],
  kindOfCompany: 'services',
  subsidiaries: 'none',
  diviloProduct: 'account',
  foundsOrigin: 'business-activity',
  assetsOrigin: 'business-activity',
  politicalPosition: false,
};
const owner = (overrides: Record<string, unknown> = {}) => ({
  role: 'owner',
  firstName: 'Lucía',
  firstSurname: 'Martín',
  secondSurname: '',
  identificationDocument: '12345678Z',
  nationality: 'ES',
  birthDate: '14/03/1990',
  ownership: 'direct',
  percentage: '60',
  politicalPosition: false,
  ...overrides,
});
const pdf = plainPdf();

describeEachDialect('onboarding: the company path', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  let applicants = 0;
  /** An application of a company at /about-company, with the person's steps done. */
  async function companyApplication(completed: string[] = BEFORE_COMPANY, answers: Record<string, unknown> = {}) {
    applicants += 1;
    const idDocument = `${String(40_000_000 + applicants)}${'TRWAGMYFPDXBNJZSQVHLCKE'[(40_000_000 + applicants) % 23]}`;
    const created = await server.app.applications.create(
      { email: `company${applicants}-${dialect}@example.com`, idDocument, answers: { residenceCountry: 'ES', firstName: 'Lucía', firstSurname: 'Martín', ...answers }, completedSteps: completed, language: 'es' },
      new Date(),
    );
    await server.app.applications.save(created, { personType: 'company' }, new Date());
    return { id: created.id, bearer: await server.app.onboardingTokens.issue(created.id) };
  }
  async function save(path: string, bearer: string, body: unknown) {
    const response = await fetch(`${server.api}/onboarding-management-private/legalperson/company${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const fieldsOf = (body: Record<string, unknown>) => Object.fromEntries(((body.errors ?? []) as { field: string; id: string }[]).map(({ field, id }) => [field, id]));
  /** Uploads a PDF as the browser does and has the server check it as `kind`: its key. */
  async function checkedPdf(who: { bearer: string }, kind: string) {
    const storage = (await (
      await fetch(`${server.api}/onboarding-management-private/storage-identity`, { method: 'POST', headers: { authorization: `Bearer ${who.bearer}` } })
    ).json()) as { identityId: string; token: string };
    const config = { region: server.config.storage.region, bucket: server.config.storage.bucket, endpoint: `${server.base}/s3` };
    const credentials = applicantCredentials(storage, { region: server.config.identity.region, endpoint: `${server.base}/cognito` });
    const { key } = await uploadDocument(new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), { key: `${kind}/${kind}.pdf`, level: 'private', credentials, identityId: storage.identityId, config });
    const checked = await fetch(`${server.api}/onboarding-management-private/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind, key }),
    });
    expect(checked.status).toBe(200);
    return key;
  }
  const upTo = (step: string) => {
    const order = ['about-company', 'about-company-info', 'about-company-address', 'articles-of-association', 'corporate-tax', 'about-company-numbers', 'royal-owners', 'tell-us-more-company'];
    return [...BEFORE_COMPANY, ...order.slice(0, order.indexOf(step))];
  };

  it('about-company: a served CIF is stored as its companyId; a bad check character is refused by field', async () => {
    const who = await companyApplication();
    expect(fieldsOf((await save('', who.bearer, { cif: 'B12345670' })).body)).toEqual({ cif: 'validations.cif' });
    const saved = await save('', who.bearer, { cif: ' b12345674 ' });
    expect(saved).toMatchObject({ status: 200, body: { next: 'about-company-info', application: { currentStep: 'about-company-info', answers: { cif: 'B12345674', isCif: true, companyId: 'B12345674' } } } });
  });

  it('a CIF of a refused entity type closes nothing until the applicant confirms it, and says which entity it names', async () => {
    const who = await companyApplication();
    // B58378431 with its first letter mistyped as G still passes the check character.
    const asked = await save('', who.bearer, { cif: 'G58378431' });
    expect(asked).toEqual({ status: 409, body: expect.objectContaining({ code: 'CONFIRMATION_REQUIRED', entity: 'G' }) });
    const view = (await server.app.applications.find(who.id))!;
    expect(view.status).toBe('in-progress');
    expect(view.completedSteps).not.toContain('about-company');
    expect(view.answers.cif).toBeUndefined();
    // Corrected, the application goes on; a served CIF needs no confirmation.
    expect((await save('', who.bearer, { cif: 'B58378431' })).body).toMatchObject({ next: 'about-company-info', application: { status: 'in-progress' } });
  });

  it('a member of a community of property, asked, takes the self-employed path instead: the application stays open', async () => {
    const who = await companyApplication();
    expect((await save('', who.bearer, { cif: 'E12345674' })).body).toMatchObject({ code: 'CONFIRMATION_REQUIRED', entity: 'E' });
    const switched = await fetch(`${server.api}/onboarding-management-private/person-type`, {
      method: 'POST',
      headers: { authorization: `Bearer ${who.bearer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ personType: 'freelance' }),
    });
    expect(await switched.json()).toMatchObject({ next: 'requirements-freelance', application: { status: 'in-progress', personType: 'freelance', currentStep: 'requirements-freelance' } });
  });

  it('an association or a public body ends on company-error once confirmed, and the application takes no more changes', async () => {
    for (const cif of ['G28659670', 'Q2826000H']) {
      const who = await companyApplication();
      expect((await save('', who.bearer, { cif, confirmNotServed: true })).body).toMatchObject({ next: 'company-error', application: { status: 'not-allowed', currentStep: 'company-error' } });
      expect((await save('', who.bearer, { cif: 'B12345674' })).body).toMatchObject({ code: 'APPLICATION_CLOSED' });
    }
  });

  it('about-company-info: the legal form must fit the entity type, the CNAE must be a class', async () => {
    const who = await companyApplication(upTo('about-company-info'), { cif: 'B12345674' });
    expect(fieldsOf((await save('/legal-info', who.bearer, { ...INFO, legalForm: 'SA', cnae: '62.1', foundedDate: '01/01/2099' })).body)).toEqual({
      legalForm: 'validations.choice',
      cnae: 'validations.choice',
      foundedDate: 'validations.notFuture',
    });
    expect((await save('/legal-info', who.bearer, INFO)).body).toMatchObject({ next: 'about-company-address' });
    expect((await save('/postal-address', who.bearer, { ...ADDRESS, companyPostalCode: '60000' })).body).toMatchObject({ errors: [{ field: 'companyPostalCode', id: 'validations.postalCode' }] });
    expect((await save('/postal-address', who.bearer, ADDRESS)).body).toMatchObject({ next: 'articles-of-association' });
  });

  it('the deeds and the articles must be documents the server checked for this application', async () => {
    const who = await companyApplication(upTo('articles-of-association'), { cif: 'B12345674', ...INFO });
    const other = await companyApplication(upTo('articles-of-association'), { cif: 'B12345674', ...INFO });
    const othersDeeds = await checkedPdf(other, 'companyDeeds');
    expect(fieldsOf((await save('/deeds', who.bearer, { companyDeeds: othersDeeds, articlesOfIncorporation: 'private/nowhere/articles.pdf' })).body)).toEqual({
      companyDeeds: 'validations.documentMissing',
      articlesOfIncorporation: 'validations.documentMissing',
    });
    const deeds = await checkedPdf(who, 'companyDeeds');
    const articles = await checkedPdf(who, 'articlesOfIncorporation');
    expect((await save('/deeds', who.bearer, { companyDeeds: deeds, articlesOfIncorporation: articles })).body).toMatchObject({ next: 'corporate-tax' });
  });

  it('the modelo 200 is optional in the first year, on the server clock, and required after', async () => {
    const young = await companyApplication(upTo('corporate-tax'), { cif: 'B12345674', ...INFO, foundedDate: '01/09/2026' });
    const old = await companyApplication(upTo('corporate-tax'), { cif: 'B12345674', ...INFO, foundedDate: '01/09/2024' });
    server.clock.offsetMs = Date.parse('2026-11-25T10:00:00Z') - Date.now();
    try {
      expect((await save('/tax', young.bearer, { model200: '' })).body).toMatchObject({ next: 'about-company-numbers' });
      expect(fieldsOf((await save('/tax', old.bearer, { model200: '' })).body)).toEqual({ model200: 'validations.required' });
      // A year and a day later the young company needs it too.
      server.clock.offsetMs = Date.parse('2027-09-02T10:00:00Z') - Date.now();
      const again = await companyApplication(upTo('corporate-tax'), { cif: 'B12345674', ...INFO, foundedDate: '01/09/2026' });
      expect(fieldsOf((await save('/tax', again.bearer, { model200: '' })).body)).toEqual({ model200: 'validations.required' });
    } finally {
      server.clock.offsetMs = 0;
    }
  });

  it('the numbers are whole and from 0', async () => {
    const who = await companyApplication(upTo('about-company-numbers'), { cif: 'B12345674', ...INFO });
    expect(fieldsOf((await save('/numbers', who.bearer, { employeeNumber: '-1', bussinesVolume: '12,5' })).body)).toEqual({
      employeeNumber: 'validations.minValue',
      bussinesVolume: 'validations.integer',
    });
    expect((await save('/numbers', who.bearer, NUMBERS)).body).toMatchObject({ next: 'royal-owners' });
  });

  it('takes a CIF, a turnover and a website as people write them, and stores them in one form', async () => {
    const who = await companyApplication();
    expect((await save('', who.bearer, { cif: 'b-58.378.431' })).body).toMatchObject({ next: 'about-company-info', application: { answers: { cif: 'B58378431', companyId: 'B58378431' } } });
    const counted = await companyApplication(upTo('about-company-numbers'), { cif: 'B12345674', ...INFO });
    expect((await save('/numbers', counted.bearer, { employeeNumber: ' 12 ', bussinesVolume: '250.000 €' })).body).toMatchObject({
      next: 'royal-owners',
      application: { answers: { employeeNumber: '12', bussinesVolume: '250000' } },
    });
    const more = await companyApplication(upTo('tell-us-more-company'), { cif: 'B12345674', ...INFO, owners: [owner()], indirectOwners: false });
    expect((await save('/moreinfo', more.bearer, { ...MORE, website: 'www.empresa.es' })).body).toMatchObject({ application: { answers: { website: 'https://www.empresa.es' } } });
  });

  describe('the real owners', () => {
    const ownersStep = () => companyApplication(upTo('royal-owners'), { cif: 'B12345674', ...INFO, ...NUMBERS });

    it('25% is not a real owner, 25.01% is', async () => {
      const who = await ownersStep();
      expect(fieldsOf((await save('/tr', who.bearer, { owners: [owner({ percentage: '25' })], indirectOwners: false })).body)).toEqual({ 'owners[0].percentage': 'validations.realOwnerShare' });
      expect((await save('/tr', who.bearer, { owners: [owner({ percentage: '25,01' })], indirectOwners: false })).body).toMatchObject({ next: 'tell-us-more-company' });
    });

    it('shares over 100 in all are refused on the list; the same person twice and a bad ID on the person', async () => {
      const who = await ownersStep();
      const over = await save('/tr', who.bearer, { owners: [owner({ percentage: '60' }), owner({ identificationDocument: '00000000T', percentage: '40,01' })], indirectOwners: false });
      expect(fieldsOf(over.body)).toEqual({ owners: 'validations.ownersTotal' });
      const twice = await save('/tr', who.bearer, { owners: [owner({ percentage: '50' }), owner({ identificationDocument: '12345678z', percentage: '30' })], indirectOwners: false });
      expect(fieldsOf(twice.body)).toEqual({ 'owners[1].identificationDocument': 'validations.duplicateOwner' });
      // One NIE in its two spellings is one person too.
      const spelled = await save('/tr', who.bearer, { owners: [owner({ identificationDocument: 'X01082303S', percentage: '30' }), owner({ identificationDocument: 'x1082303s', percentage: '30' })], indirectOwners: false });
      expect(fieldsOf(spelled.body)).toEqual({ 'owners[1].identificationDocument': 'validations.duplicateOwner' });
      const badId = await save('/tr', who.bearer, { owners: [owner({ identificationDocument: '12345678A' })], indirectOwners: false });
      expect(fieldsOf(badId.body)).toEqual({ 'owners[0].identificationDocument': 'validations.identificationDocument' });
      expect(fieldsOf((await save('/tr', who.bearer, { owners: [], indirectOwners: false })).body)).toEqual({ owners: 'validations.required' });
    });

    it('when nobody holds over 25%, the administrators are recorded, with no share of their own', async () => {
      const who = await ownersStep();
      const saved = await save('/tr', who.bearer, { owners: [owner({ role: 'administrator', percentage: '10', ownership: 'direct' })], indirectOwners: true });
      expect(saved.body).toMatchObject({ next: 'tell-us-more-company', application: { answers: { indirectOwners: true, owners: [{ role: 'administrator', percentage: '', ownership: '' }] } } });
    });

    it('an owner who is politically exposed makes the risk high; saving the same again writes no new audit entry', async () => {
      const who = await ownersStep();
      const body = { owners: [owner(), owner({ identificationDocument: '00000000T', firstName: 'Javier', percentage: '30', politicalPosition: true })], indirectOwners: false };
      expect((await save('/tr', who.bearer, body)).status).toBe(200);
      expect((await server.app.applications.find(who.id))?.riskfactor).toBe('high');
      const entries = async () => (await server.app.auditLog.listBySubject(`application:${who.id}`)).filter((entry) => entry.action === 'onboarding.step_saved').length;
      const first = await entries();
      expect((await save('/tr', who.bearer, body)).status).toBe(200);
      expect(await entries()).toBe(first);
    });
  });

  it('tell-us-more-company, then the closing steps; a freelancer cannot use a company step', async () => {
    const who = await companyApplication(upTo('tell-us-more-company'), { cif: 'B12345674', ...INFO, owners: [owner()], indirectOwners: false });
    expect(fieldsOf((await save('/moreinfo', who.bearer, { ...MORE, kindOfCompany: 'bank', establishedAbroad: true, operativeCountries: [] })).body)).toEqual({
      kindOfCompany: 'validations.choice',
      operativeCountries: 'validations.required',
    });
    expect((await save('/moreinfo', who.bearer, MORE)).body).toMatchObject({ next: 'divilo-password', application: { currentStep: 'divilo-password' } });

    const saved = async () => (await server.app.applications.find(who.id))!.answers;
    expect(await saved()).toMatchObject({ establishedAbroad: false, operativeCountries: [] });
    // A company has no salary, savings or inheritance of its own; Spain is not abroad; the question is answered.
    expect(fieldsOf((await save('/moreinfo', who.bearer, { ...MORE, foundsOrigin: 'salary', assetsOrigin: 'inheritance-or-gift' })).body)).toEqual({
      foundsOrigin: 'validations.choice',
      assetsOrigin: 'validations.choice',
    });
    expect(fieldsOf((await save('/moreinfo', who.bearer, { ...MORE, establishedAbroad: true, operativeCountries: ['PT', 'ES'] })).body)).toEqual({ 'operativeCountries[1]': 'validations.choice' });
    expect(fieldsOf((await save('/moreinfo', who.bearer, { ...MORE, establishedAbroad: undefined })).body)).toEqual({ establishedAbroad: 'validations.required' });
    // Countries abroad are kept only with a yes; a company's own origins are taken.
    expect((await save('/moreinfo', who.bearer, { ...MORE, establishedAbroad: false, operativeCountries: ['FR'] })).status).toBe(200);
    expect((await saved()).operativeCountries).toEqual([]);
    expect((await save('/moreinfo', who.bearer, { ...MORE, establishedAbroad: true, operativeCountries: ['FR'], foundsOrigin: 'partners-contributions', assetsOrigin: 'grants' })).status).toBe(200);
    expect(await saved()).toMatchObject({ establishedAbroad: true, operativeCountries: ['FR'], foundsOrigin: 'partners-contributions', assetsOrigin: 'grants' });

    const freelancer = await server.app.applications.create(
      { email: `freelancer-${dialect}@example.com`, idDocument: '00000001R', answers: { residenceCountry: 'ES' }, completedSteps: BEFORE_COMPANY, language: 'es' },
      new Date(),
    );
    await server.app.applications.save(freelancer, { personType: 'freelance' }, new Date());
    const freelanceBearer = await server.app.onboardingTokens.issue(freelancer.id);
    expect((await save('', freelanceBearer, { cif: 'B12345674' })).body).toMatchObject({ code: 'STEP_NOT_ON_PATH' });
  });

  it('the contract names the company, its legal form and registered address, represented by the applicant', async () => {
    const application = await companyApplication(upTo('tell-us-more-company'), { cif: 'B12345674', ...INFO, ...ADDRESS });
    const found = (await server.app.applications.find(application.id))!;
    const text = (await pageTexts(await renderContract(found, { template: loadContractTemplates().es, now: new Date('2026-11-25T10:00:00Z') }))).join('\n');
    for (const value of ['Martín Software S.L.', 'B12345674', 'Forma jurídica S.L.\n', 'Paseo de la Castellana 100', '28046 Madrid', 'Lucía Martín']) expect(text).toContain(value);
  });

  it('npm run admin show: the company, its owners and its documents with a link that works, on a terminal only', async () => {
    const who = await companyApplication(upTo('articles-of-association'), { cif: 'B12345674', ...INFO, owners: [owner()] });
    await checkedPdf(who, 'companyDeeds');
    const deps = async () => ({ ...reviewDependenciesOf(server, { links: true }), close: async () => undefined });
    // Output that may be kept (a pipe, a one-off task's log group) lists the documents without their links.
    const kept: string[] = [];
    await adminProgram(deps, (line) => kept.push(line)).parseAsync(['node', 'admin', 'show', who.id]);
    expect(kept.join('\n')).not.toContain('X-Amz-Signature');
    expect(JSON.parse(kept.join('\n'))).toMatchObject({ documents: [{ kind: 'companyDeeds', link: LINK_WITHHELD }] });

    const lines: string[] = [];
    const print = (line: string) => lines.push(line);
    await adminProgram(deps, print, 140, print).parseAsync(['node', 'admin', 'show', who.id]);
    const shown = JSON.parse(lines.join('\n')) as { answers: Record<string, unknown>; documents: { kind: string; link: string }[] };
    expect(shown.answers).toMatchObject({ socialDenomination: 'Martín Software S.L.', owners: [{ firstName: 'Lucía', percentage: '60' }] });
    expect(shown.documents).toEqual([expect.objectContaining({ kind: 'companyDeeds', link: expect.stringContaining('X-Amz-Expires=600') })]);
    const download = await fetch(shown.documents[0].link);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
