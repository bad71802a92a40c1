// The company path's screens through the whole app: the legal forms of the entity type, the refused entity's
// explanation, and /royal-owners — adding, editing and removing people, the running total, the rules and a
// refusal of the server next to the list.
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { RootState } from '../../../../src/app/store';
import { setRuntimeConfig } from '../../../../src/config';
import { initialFormState } from '../../../../src/state/formSlice';
import { initialSessionState, sessionCleared, sessionStarted } from '../../../../src/state/sessionSlice';
import { onboardingApi, type ApplicationView } from '../../../../src/features/signup/onboardingApi';
import type { Answers, Owner } from '../../../../src/onboarding/answers';
import { initialStateFromBrowser } from '../../../../src/app/store';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;
let answers: Record<string, (request: RecordedRequest) => [number, unknown]>;
const pathOf = (request: RecordedRequest) => request.url.split('?')[0].replace(/^\/api\//, '');

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    const given = answers[pathOf(request)];
    if (given) {
      const [status, body] = given(request);
      return json(res, status, body);
    }
    json(res, 404, { code: 'NOT_FOUND' });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  server.requests.length = 0;
  answers = {};
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

const signedUp = { idType: 'nif', id: '12345678Z' } as const;
const applicant: Partial<Answers> = { ...signedUp, firstName: 'Lucía', firstSurname: 'Martín', nationality: 'ES', birthDate: '14/03/1990', cif: 'B12345674' };
const COMPANY = 'onboarding-management-private/legalperson/company';

const applicationOf = (currentStep: string, answersSaved: Record<string, unknown>, status: ApplicationView['status'] = 'in-progress'): ApplicationView => ({
  id: 'a-1',
  status,
  personType: 'company',
  currentStep,
  completedSteps: [],
  answers: answersSaved,
  maskedEmail: 'l***@example.com',
});

/** A company's applicant with a session: who signed up in the form record, the answers saved in the server's application. */
function midWizard(answersSaved: Partial<Answers> = {}): Partial<RootState> {
  answers['onboarding-management-private/application'] = () => [200, applicationOf('royal-owners', { ...applicant, ...answersSaved })];
  return {
    session: { ...initialSessionState, authorizationToken: liveToken() },
    form: { ...initialFormState, ...signedUp, _persist: { version: -1, rehydrated: true } },
  };
}

const saved = (next: string, answersSaved: Record<string, unknown>): [number, unknown] => [200, { next, application: applicationOf(next, answersSaved) }];

/** /company-error as the applicant reaches it: the save of the CIF answers that the application is closed. */
async function refusedAt(cif: string, locale: 'en' | 'es' = 'en') {
  answers[COMPANY] = () => [200, { next: 'company-error', application: applicationOf('company-error', { ...applicant, cif }, 'not-allowed') }];
  const view = renderApp('/about-company', { state: midWizard({ cif }), locale });
  await view.user.click(await screen.findByRole('button', { name: locale === 'es' ? 'Continuar' : 'Continue' }, { timeout: 20_000 }));
  await waitFor(() => expect(view.router.state.location.pathname).toBe('/company-error'));
  return view;
}

const applicationRead = (store: ReturnType<typeof renderApp>['store']) => onboardingApi.endpoints.getApplication.select()(store.getState()).data;

async function addPerson(user: UserEvent, button: 'Add a beneficial owner' | 'Add an administrator' | 'Add myself', person: { name?: string; surname?: string; dni?: string; share?: string; pep?: boolean }) {
  await user.click(screen.getByRole('button', { name: button }));
  const editor = screen.getByRole('group', { name: button === 'Add an administrator' ? 'Administrator' : 'Beneficial owner' });
  if (button === 'Add myself') await user.click(within(editor).getByRole('radio', { name: 'A beneficial owner (more than 25%)' }));
  if (person.name) await user.type(within(editor).getByLabelText('First name'), person.name);
  if (person.surname) await user.type(within(editor).getByLabelText('First surname'), person.surname);
  if (person.dni) await user.type(within(editor).getByLabelText('DNI or NIE'), person.dni);
  if (button !== 'Add myself' && person.name) await user.type(within(editor).getByLabelText('Date of birth'), '02/09/1980');
  if (person.share !== undefined) {
    await user.click(within(editor).getByRole('radio', { name: 'Directly' }));
    await user.type(within(editor).getByLabelText('Share of capital or votes (%)'), person.share);
  }
  await user.click(within(editor).getByRole('radio', { name: person.pep ? 'Yes' : 'No, they are not' }));
  await user.click(within(editor).getByRole('button', { name: 'Save this person' }));
}

describe('/royal-owners', () => {
  it('keeps focus on what changed: the editor as it opens, the saved row, the list after a removal', async () => {
    const { user } = renderApp('/royal-owners', { state: midWizard() });
    await screen.findByText('Nobody added yet.', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('button', { name: 'Add a beneficial owner' }));
    const editor = screen.getByRole('group', { name: 'Beneficial owner' });
    expect(within(editor).getByLabelText('First name')).toHaveFocus();
    await user.click(within(editor).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('list', { name: 'People added' })).toHaveFocus();
    // "Add myself" comes with the name filled in: the question still open is the role.
    await user.click(screen.getByRole('button', { name: 'Add myself' }));
    expect(screen.getByRole('radio', { name: 'A beneficial owner (more than 25%)' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await addPerson(user, 'Add a beneficial owner', { name: 'Ana', surname: 'Ruiz', dni: '87654321X', share: '60' });
    // The person form saves after its own validation: the focus moves once that render has settled.
    const row = screen.getByText('Ana Ruiz').closest('li');
    await waitFor(() => expect(row).toHaveFocus());
    await user.click(within(row!).getByRole('button', { name: 'Edit Ana Ruiz' }));
    expect(screen.getByLabelText('First name')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Save this person' }));
    await waitFor(() => expect(screen.getByText('Ana Ruiz').closest('li')).toHaveFocus());
    await user.click(screen.getByRole('button', { name: 'Remove Ana Ruiz' }));
    expect(screen.getByRole('list', { name: 'People added' })).toHaveFocus();
  });

  it('adds the applicant from what they entered and a partner, shows the total, and sends both', async () => {
    answers['onboarding-management-private/legalperson/company/tr'] = (request) => saved('tell-us-more-company', request.body as Record<string, unknown>);
    const { user, router, store } = renderApp('/royal-owners', { state: midWizard() });
    await screen.findByText('Nobody added yet.');
    await addPerson(user, 'Add myself', { share: '60' });
    expect(screen.getByRole('list', { name: 'People added' })).toHaveTextContent('Lucía Martín');
    expect(screen.getByText('Shares declared: 60% of 100%')).toBeInTheDocument();
    await addPerson(user, 'Add a beneficial owner', { name: 'Javier', surname: 'Ruiz', dni: '00000000T', share: '30,5', pep: true });
    expect(screen.getByText('Shares declared: 90.5% of 100%')).toBeInTheDocument();
    expect(screen.getByText(/Beneficial owner, 30,5% directly, politically exposed/)).toBeInTheDocument();
    // Kept in the form record as it changes: a reload before Continue loses nobody.
    await waitFor(() => expect((store.getState().form.drafts['royal-owners']?.owners as Owner[]).map((owner) => owner.firstName)).toEqual(['Lucía', 'Javier']));

    await user.click(screen.getByRole('radio', { name: 'No, all directly' }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/tell-us-more-company'));
    const [request] = server.requests.filter((r) => pathOf(r) === 'onboarding-management-private/legalperson/company/tr');
    const body = request.body as { owners: Record<string, unknown>[]; indirectOwners: boolean };
    expect(body.indirectOwners).toBe(false);
    expect(body.owners).toEqual([
      expect.objectContaining({ role: 'owner', identificationDocument: '12345678Z', percentage: '60', ownership: 'direct', politicalPosition: false }),
      expect.objectContaining({ role: 'owner', identificationDocument: '00000000T', percentage: '30,5', politicalPosition: true }),
    ]);
  });

  it('refuses 25% for a real owner in the person form, and takes 25.01', async () => {
    const { user } = renderApp('/royal-owners', { state: midWizard() });
    await screen.findByText('Nobody added yet.');
    await addPerson(user, 'Add a beneficial owner', { name: 'Javier', surname: 'Ruiz', dni: '00000000T', share: '25' });
    const share = screen.getByLabelText('Share of capital or votes (%)');
    await waitFor(() => expect(share).toHaveAttribute('aria-invalid', 'true'));
    expect(share).toHaveAccessibleDescription(expect.stringContaining('A beneficial owner holds more than 25%'));
    await user.clear(share);
    await user.type(share, '25,01');
    await user.click(screen.getByRole('button', { name: 'Save this person' }));
    await waitFor(() => expect(screen.getByText('Shares declared: 25.01% of 100%')).toBeInTheDocument());
  });

  it('refuses the same person twice in the person form, at save', async () => {
    const { user } = renderApp('/royal-owners', { state: midWizard() });
    await screen.findByText('Nobody added yet.', {}, { timeout: 20_000 });
    await addPerson(user, 'Add myself', { share: '70' });
    await addPerson(user, 'Add a beneficial owner', { name: 'Javier', surname: 'Ruiz', dni: '12345678z', share: '40' });
    const editor = screen.getByRole('group', { name: 'Beneficial owner' });
    expect(within(editor).getByRole('group', { name: 'How does this person hold their share?' })).toBeInTheDocument();
    const dni = within(editor).getByLabelText('DNI or NIE');
    await waitFor(() => expect(dni).toHaveFocus());
    expect(dni).toHaveAccessibleDescription(expect.stringContaining('This person is on the list already'));
    expect(screen.queryByText('Javier Ruiz')).not.toBeInTheDocument();
    // Another DNI: saved, and the error went as soon as it was typed.
    await user.clear(dni);
    await user.type(dni, '00000000T');
    expect(dni).not.toHaveAttribute('aria-invalid');
    await user.click(within(editor).getByRole('button', { name: 'Save this person' }));
    expect(await screen.findByText('Javier Ruiz')).toBeInTheDocument();
  });

  it('says every problem of the list at Continue: a total over 100 and a person listed twice, both', async () => {
    const person = (firstName: string, identificationDocument: string, percentage: string) =>
      ({ role: 'owner', firstName, firstSurname: 'Ruiz', secondSurname: '', identificationDocument, nationality: 'ES', birthDate: '02/09/1980', ownership: 'direct', percentage, politicalPosition: false }) as Owner;
    // As a list resumed from an earlier visit could be.
    const owners = [person('Ana', '12345678Z', '70'), person('Javier', '12345678Z', '40')];
    const { user } = renderApp('/royal-owners', { state: midWizard({ owners, indirectOwners: false }) });
    await user.click(await screen.findByRole('button', { name: 'Continue' }, { timeout: 20_000 }));
    const listError = await screen.findByText('The shares add up to more than 100%');
    expect(listError.closest('[role=alert]')).toBeInTheDocument();
    expect(screen.getByText('Javier Ruiz').closest('li')).toHaveTextContent('This person is on the list already');
    expect(server.requests.filter((request) => pathOf(request).endsWith('/tr'))).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Remove Javier Ruiz' }));
    expect(screen.getByText('Shares declared: 70% of 100%')).toBeInTheDocument();
    expect(screen.queryByText('The shares add up to more than 100%')).not.toBeInTheDocument();
  });

  it('an empty list asks for the beneficial owners or the administrators, in words', async () => {
    const { user } = renderApp('/royal-owners', { state: midWizard() });
    await user.click(await screen.findByRole('button', { name: 'Continue' }, { timeout: 20_000 }));
    const nobody = await screen.findByText('Add the beneficial owners, or the administrators if nobody holds more than 25%.');
    expect(nobody.closest('[role=alert]')).not.toHaveTextContent('This field is required');
  });

  it('shows a refusal of the server on the person it names', async () => {
    answers['onboarding-management-private/legalperson/company/tr'] = () => [
      400,
      { code: 'VALIDATION_FAILED', errors: [{ field: 'owners[1].identificationDocument', id: 'validations.duplicateOwner' }] },
    ];
    const owners = [
      { role: 'owner', firstName: 'Lucía', firstSurname: 'Martín', secondSurname: '', identificationDocument: '12345678Z', nationality: 'ES', birthDate: '14/03/1990', ownership: 'direct', percentage: '50', politicalPosition: false },
      { role: 'owner', firstName: 'Javier', firstSurname: 'Ruiz', secondSurname: '', identificationDocument: '00000000T', nationality: 'ES', birthDate: '02/09/1980', ownership: 'direct', percentage: '40', politicalPosition: false },
    ] as Owner[];
    const { user, router } = renderApp('/royal-owners', { state: midWizard({ owners, indirectOwners: false }) });
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    const javier = (await screen.findByText('Javier Ruiz')).closest('li')!;
    await waitFor(() => expect(javier).toHaveTextContent('This person is on the list already'));
    expect(router.state.location.pathname).toBe('/royal-owners');
  });

  it('an administrator needs no share, and editing keeps the others', async () => {
    const { user } = renderApp('/royal-owners', { state: midWizard() });
    await screen.findByText('Nobody added yet.');
    await addPerson(user, 'Add an administrator', { name: 'Marta', surname: 'Gil', dni: '00000000T' });
    expect(screen.getByRole('list', { name: 'People added' })).toHaveTextContent('Administrator');
    await user.click(screen.getByRole('button', { name: 'Edit Marta Gil' }));
    const editor = screen.getByRole('group', { name: 'Administrator' });
    await user.clear(within(editor).getByLabelText('First name'));
    await user.type(within(editor).getByLabelText('First name'), 'Marta Isabel');
    await user.click(within(editor).getByRole('button', { name: 'Save this person' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'People added' })).toHaveTextContent('Marta Isabel Gil'));
    expect(screen.getAllByRole('listitem').filter((item) => item.closest('ul')?.getAttribute('aria-label') === 'People added')).toHaveLength(1);
  });
});

describe('/tell-us-more-company', () => {
  it('offers a company the origins of money that fit a company, not a salary or savings', async () => {
    renderApp('/tell-us-more-company', { state: midWizard() });
    for (const label of ['Where will the money in the account come from?', "Where do the company's assets come from?"]) {
      const select = await screen.findByLabelText(label, {}, { timeout: 20_000 });
      const options = within(select).getAllByRole('option').map((option) => option.getAttribute('value'));
      expect(options).toEqual(expect.arrayContaining(['business-activity', 'partners-contributions', 'grants']));
      expect(options).not.toContain('salary');
      expect(options).not.toContain('savings');
      expect(options).not.toContain('inheritance-or-gift');
    }
    expect(screen.queryByLabelText('Where do your assets come from?')).toBeNull();
  });

  it('asks one list of countries, and the countries abroad only of a company that has offices or staff there', async () => {
    const MORE = 'onboarding-management-private/legalperson/company/moreinfo';
    answers[MORE] = (request) => saved('divilo-password', request.body as Record<string, unknown>);
    const { user, router } = renderApp('/tell-us-more-company', { state: midWizard() });
    const abroad = await screen.findByRole('group', { name: 'Does the company have offices or staff outside Spain?' }, { timeout: 20_000 });
    expect(screen.getAllByRole('combobox', { name: /^Countries/ })).toHaveLength(1);
    expect(screen.queryByRole('combobox', { name: 'Countries outside Spain where it has offices or staff' })).toBeNull();

    await user.click(within(abroad).getByRole('radio', { name: 'Yes, abroad too' }));
    const where = screen.getByRole('combobox', { name: 'Countries outside Spain where it has offices or staff' });
    await user.type(where, 'Españ');
    expect(screen.queryByRole('option', { name: /España|Spain/ })).toBeNull();
    await user.clear(where);
    await user.type(where, 'Portugal');
    await user.click(await screen.findByRole('option', { name: /Portugal/ }));

    // Changing the answer to "no" sends no countries abroad, whatever was picked before.
    await user.click(within(abroad).getByRole('radio', { name: 'No, only in Spain' }));
    await user.selectOptions(screen.getByLabelText('What does the company mainly do?'), 'services');
    await user.click(screen.getByRole('radio', { name: 'No, none' }));
    await user.click(screen.getByRole('radio', { name: 'A business account' }));
    await user.selectOptions(screen.getByLabelText('Where will the money in the account come from?'), 'partners-contributions');
    await user.selectOptions(screen.getByLabelText("Where do the company's assets come from?"), 'business-activity');
    await user.click(screen.getByRole('radio', { name: "No, I don't" }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/divilo-password'));
    const [request] = server.requests.filter((r) => pathOf(r) === MORE);
    expect(request.body).toMatchObject({ countriesWhereOperate: ['ES'], establishedAbroad: false, foundsOrigin: 'partners-contributions' });
    expect((request.body as { operativeCountries: string[] }).operativeCountries).not.toContain('ES');
  });

  it('shows an application saved with offices abroad as a yes, with Spain left out of the list abroad', async () => {
    renderApp('/tell-us-more-company', { state: midWizard({ foundsOrigin: 'business-activity', operativeCountries: ['ES', 'PT'] }) });
    const abroad = await screen.findByRole('group', { name: 'Does the company have offices or staff outside Spain?' }, { timeout: 20_000 });
    expect(within(abroad).getByRole('radio', { name: 'Yes, abroad too' })).toBeChecked();
    const chips = screen.getByRole('list', { name: 'Countries outside Spain where it has offices or staff' });
    expect(within(chips).getAllByRole('listitem').map((item) => item.textContent)).toEqual([expect.stringMatching(/^Portugal/)]);
  });

  it("takes the applicant's politically exposed answer from their own entry among the owners: asked once", async () => {
    const me = { role: 'owner', firstName: 'Lucía', firstSurname: 'Martín', secondSurname: '', identificationDocument: '12345678z', nationality: 'ES', birthDate: '14/03/1990', ownership: 'direct', percentage: '60', politicalPosition: true } as Owner;
    renderApp('/tell-us-more-company', { state: midWizard({ owners: [me], indirectOwners: false }) });
    const group = await screen.findByRole('group', { name: /politically exposed|public office/i }, { timeout: 20_000 });
    expect(within(group).getByRole('radio', { name: /^Yes/ })).toBeChecked();
  });
});

describe('the company details', () => {
  it('offers the legal forms of the entity type of the CIF only (an S.A. for an A…)', async () => {
    const { user } = renderApp('/about-company-info', { state: midWizard({ cif: 'A58818501' }) });
    const legalForm = await screen.findByLabelText('Legal form');
    const options = within(legalForm).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['Choose…', 'S.A.', 'S.A.U.', 'S.A.L.']);
    await user.selectOptions(legalForm, 'SAU');
    expect(legalForm).toHaveValue('SAU');
  });

  it('asks before a CIF of a refused entity closes the application, naming the entity, with a way back to correct it', async () => {
    answers[COMPANY] = (request) => {
      const body = request.body as { cif: string; confirmNotServed?: boolean };
      if (body.cif.toUpperCase().startsWith('B')) return saved('about-company-info', { cif: body.cif });
      if (body.confirmNotServed !== true) return [409, { code: 'CONFIRMATION_REQUIRED', message: 'confirm', entity: 'G' }];
      return [200, { next: 'company-error', application: applicationOf('company-error', { cif: body.cif }, 'not-allowed') }];
    };
    const { user, router } = renderApp('/about-company', { state: midWizard({ cif: '' }) });
    const cif = await screen.findByRole('textbox', { name: /Company tax ID/ });
    await user.type(cif, 'G58378431');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Is the CIF right?' })).toHaveFocus();
    expect(screen.getByText(/A CIF starting with G belongs to an association or foundation/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/about-company');

    // Back to the field: the mistyped letter is corrected, and nothing was closed.
    await user.click(screen.getByRole('button', { name: 'Correct the CIF' }));
    expect(cif).toHaveFocus();
    await user.clear(cif);
    await user.type(cif, 'B58378431');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/about-company-info'));
    const sent = server.requests.filter((request) => pathOf(request) === COMPANY).map((request) => request.body);
    expect(sent).toEqual([{ cif: 'G58378431' }, { cif: 'B58378431' }]);
  });

  it('closes the application only once the applicant says the CIF is right', async () => {
    answers[COMPANY] = (request) => {
      const body = request.body as { cif: string; confirmNotServed?: boolean };
      if (body.confirmNotServed !== true) return [409, { code: 'CONFIRMATION_REQUIRED', message: 'confirm', entity: 'G' }];
      return [200, { next: 'company-error', application: applicationOf('company-error', { cif: body.cif }, 'not-allowed') }];
    };
    const { user, router } = renderApp('/about-company', { state: midWizard({ cif: '' }), locale: 'es' });
    await user.type(await screen.findByRole('textbox', { name: /CIF/ }), 'G28659670');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText(/Un CIF que empieza por G es de una asociación o fundación/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'El CIF es correcto' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/company-error'));
    expect(server.requests.at(-1)?.body).toEqual({ cif: 'G28659670', confirmNotServed: true });
  });

  it('a community of property (E): its member can take the self-employed path instead of closing the application', async () => {
    answers[COMPANY] = () => [409, { code: 'CONFIRMATION_REQUIRED', message: 'confirm', entity: 'E' }];
    answers['onboarding-management-private/person-type'] = () => [
      200,
      { next: 'requirements-freelance', application: { id: 'a-1', status: 'in-progress', personType: 'freelance', currentStep: 'requirements-freelance', completedSteps: [], answers: {}, maskedEmail: 'l***@example.com' } },
    ];
    const { user, router, store } = renderApp('/about-company', { state: midWizard({ cif: '' }) });
    await user.type(await screen.findByRole('textbox', { name: /Company tax ID/ }), 'E12345674');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/belongs to a community of property \(comunidad de bienes\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue as self-employed instead' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/requirements-freelance'));
    expect(server.requests.at(-1)?.body).toEqual({ personType: 'freelance' });
    expect(applicationRead(store)).toMatchObject({ personType: 'freelance' });
  });

  it('/company-error of a community of property points its other members to the self-employed path; other refusals do not', async () => {
    const { unmount } = await refusedAt('E12345674');
    expect(await screen.findByText(/its members can open accounts as self-employed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open an account as self-employed' })).toHaveAttribute('href', '/signUp');
    unmount();
    localStorage.clear();
    await refusedAt('G28659670');
    expect(await screen.findByText(/Associations and foundations/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Open an account as self-employed' })).toBeNull();
  });

  it('explains why an association is refused, in Spanish, and forgets the application', async () => {
    const { store } = await refusedAt('G28659670', 'es');
    expect(await screen.findByText(/asociaciones y fundaciones/)).toBeInTheDocument();
    await waitFor(() => expect(store.getState().session.authorizationToken).toBeNull());
  });

  it('keeps the refusal and its reason after a reload and a language switch, with no session and no form left', async () => {
    const first = await refusedAt('G28659670');
    expect(await screen.findByText(/Associations and foundations/)).toBeInTheDocument();
    await waitFor(() => expect(first.store.getState().session.authorizationToken).toBeNull());
    expect(applicationRead(first.store)).toBeUndefined();
    // A language switch runs the route's guard again (?lang= leaves the address).
    await first.router.navigate('/company-error?lang=en', { replace: true });
    expect(first.router.state.location.pathname).toBe('/company-error');
    expect(screen.getByText(/Associations and foundations/)).toBeInTheDocument();
    first.unmount();

    // A reload: the app starts from what the browser kept, which is the refusal and nothing personal.
    expect(JSON.stringify(localStorage)).not.toContain('G28659670');
    const reloaded = renderApp('/company-error', { state: initialStateFromBrowser('es'), locale: 'es' });
    expect(await screen.findByText(/asociaciones y fundaciones/)).toBeInTheDocument();
    expect(reloaded.router.state.location.pathname).toBe('/company-error');
  });

  it('a new sign-up forgets a remembered refusal: the refusal page then needs a session again', async () => {
    localStorage.setItem('CLOSED_APPLICATION', JSON.stringify({ page: 'company-error', entity: 'G' }));
    const { store, router } = renderApp('/signUp', { state: initialStateFromBrowser('en') });
    expect(store.getState().session.closedApplication).toEqual({ page: 'company-error', entity: 'G' });
    store.dispatch(sessionStarted({ token: liveToken() }));
    expect(localStorage.getItem('CLOSED_APPLICATION')).toBeNull();
    store.dispatch(sessionCleared());
    await router.navigate('/company-error');
    await waitFor(() => expect(router.state.location.pathname).toBe('/signUp'));
  });

  it('a company less than a year old may go on without the modelo 200', async () => {
    const recent = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const foundedDate = `${String(recent.getUTCDate()).padStart(2, '0')}/${String(recent.getUTCMonth() + 1).padStart(2, '0')}/${recent.getUTCFullYear()}`;
    answers['onboarding-management-private/legalperson/company/tax'] = () => saved('about-company-numbers', {});
    answers['onboarding-management-private/documents'] = () => [200, { documents: [] }];
    const { user, router } = renderApp('/corporate-tax', { state: midWizard({ foundedDate }) });
    expect(await screen.findByText(/less than a year old/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/about-company-numbers'));
  });
});
