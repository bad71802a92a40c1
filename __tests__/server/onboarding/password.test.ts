// /divilo-password against the whole server and its identity service, on both databases.
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { describeEachDialect } from '../helpers';
import { signIn, startLoginServerOn } from '../login/loginServer';

const [ana] = DEMO_CUSTOMERS;
const STEPS_BEFORE = ['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as', 'your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance'];

describeEachDialect('onboarding: the password', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  /** An application whose earlier steps are done (as their own calls leave them), and its token. */
  async function readyApplication(idDocument: string) {
    const created = await server.app.applications.create(
      { email: `${idDocument.toLowerCase()}@example.com`, idDocument, answers: { residenceCountry: 'ES', telephoneNumber: '+34611222333' }, completedSteps: STEPS_BEFORE, language: 'es' },
      new Date(),
    );
    await server.app.applications.save(created, { personType: 'freelance' }, new Date());
    return { id: created.id, token: await server.app.onboardingTokens.issue(created.id) };
  }
  const setPassword = async (token: string, diviloPassword: string, diviloPasswordConfirmation = diviloPassword) => {
    const response = await fetch(`${server.api}/onboarding-management-private/password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ diviloPassword, diviloPasswordConfirmation }),
    });
    return { status: response.status, text: await response.text() };
  };

  it('refuses a weak or mismatched password field by field, keeps it sealed until the identity is verified, then makes a user who cannot sign in until approval', async () => {
    const { id, token } = await readyApplication('00000020K');
    const weak = await setPassword(token, 'password');
    expect(weak.status).toBe(400);
    expect(JSON.parse(weak.text)).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'diviloPassword', id: 'validations.diviloPassword' }] });
    expect(JSON.parse((await setPassword(token, 'Nueva-Clave-2026', 'Nueva-Clave-2027')).text)).toMatchObject({ errors: [{ field: 'diviloPasswordConfirmation', id: 'validations.sameAs' }] });

    const done = await setPassword(token, 'Nueva-Clave-2026');
    expect(done.status).toBe(200);
    expect(JSON.parse(done.text)).toMatchObject({ next: 'check-identity', application: { currentStep: 'check-identity' } });
    expect(done.text).not.toContain('Nueva-Clave-2026');
    // Nobody holds the ID until an identity is verified: no user yet, the password sealed.
    expect(await server.app.identity.getUser('00000020K')).toBeUndefined();
    const pending = async () => (await server.app.db.selectFrom('pending_passwords').select('sealed').where('application_id', '=', id).executeTakeFirst())?.sealed;
    const sealed = await pending();
    expect(sealed).toEqual(expect.any(String));
    for (const form of ['Nueva-Clave-2026', Buffer.from('Nueva-Clave-2026').toString('base64'), Buffer.from('Nueva-Clave-2026').toString('hex')]) expect(sealed).not.toContain(form);
    // A retry (a lost answer) replaces it.
    expect((await setPassword(token, 'Otra-Clave-2026!')).status).toBe(200);

    // Verified: the user is made with the last password chosen, and cannot sign in until approval.
    await server.app.signInUsers.claim((await server.app.applications.find(id))!, new Date());
    // Twice at once (a provider's result delivered twice, an approval): one user, no error.
    const verified = (await server.app.applications.find(id))!;
    await Promise.all([server.app.signInUsers.ensureUser(verified, new Date()), server.app.signInUsers.ensureUser(verified, new Date())]);
    const user = await server.app.identity.getUser('00000020K');
    expect(user?.attributes).toMatchObject({ phone_number: '+34611222333', email: '00000020k@example.com', 'custom:onboarding_status': 'pending' });
    expect((await server.app.applications.find(id))!.answers.identityUserSub).toBe(user?.sub);
    expect(await pending()).toBeUndefined();
    await expect(signIn(server.base, '00000020K', 'Otra-Clave-2026!')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    // Chosen again afterwards: set on the same user at once.
    expect((await setPassword(token, 'Tercera-Clave-2026')).status).toBe(200);
    await expect(signIn(server.base, '00000020K', 'Tercera-Clave-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    expect((await server.app.identity.getUser('00000020K'))?.sub).toBe(user?.sub);
  });

  it('never takes over an existing customer\'s account', async () => {
    const { token } = await readyApplication(ana.username);
    const refused = await setPassword(token, 'Nueva-Clave-2026');
    expect(refused.status).toBe(409);
    expect(JSON.parse(refused.text)).toMatchObject({ code: 'ALREADY_A_CUSTOMER' });
    await expect(signIn(server.base, ana.username, ana.password)).resolves.toEqual(expect.any(String));
  });
});
