// /contact-phone and /confirm-telephone against the whole server, on both databases.
import { randomUUID } from 'node:crypto';
import { afterNextCall, describeEachDialect } from '../helpers';
import { passCaptcha, startLoginServerOn } from '../login/loginServer';

const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: '', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };

describeEachDialect('onboarding: the phone and its SMS code', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  const post = async (path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.api}/${path}`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const lastText = async (recipient: string) =>
    (await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', recipient).orderBy('id', 'desc').executeTakeFirstOrThrow()).text;
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];

  async function application(email: string, id: string): Promise<string> {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const registered = await post('onboarding-management/register', '', { email, idType: 'nif', id, privacyPolicy: true, precontractualInformation: true, sessionId });
    const confirmed = await post('onboarding-management-private/email/verify', registered.body.token as string, { code: codeIn(await lastText(email)) });
    return confirmed.body.token as string;
  }

  it('checks the number for its country, stores it in E.164, and confirms it with the SMS code', async () => {
    const token = await application(`phone-${dialect}@example.com`, '00000010X');
    expect((await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '612345678' })).body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', currentStep: 'personal-info' });
    await post('onboarding-management-private/personal-info', token, PERSON);
    const wrongNumber = await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '12345' });
    expect(wrongNumber.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'telephoneNumber', id: 'validations.phoneNumber' }] });
    // A valid French number is not a valid Spanish one.
    expect((await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '0612345678' })).status).toBe(400);

    const sent = await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '612 34 56 78' });
    expect(sent.body).toMatchObject({ next: 'confirm-telephone', maskedPhone: '********678', application: { answers: { telephoneNumber: '+34612345678' }, currentStep: 'confirm-telephone' } });
    const text = await lastText('+34612345678');
    const code = codeIn(text);
    const wrong = await post('onboarding-management-private/phone/verify', token, { code: code === '000000' ? '111111' : '000000' });
    expect(wrong).toEqual({ status: 401, body: expect.objectContaining({ code: 'CODE_INVALID', attemptsLeft: 4 }) });
    const confirmed = await post('onboarding-management-private/phone/verify', token, { code });
    expect(confirmed.body).toMatchObject({ next: 'register-as', application: { currentStep: 'register-as' } });

    // Another number must be confirmed again: the last code was answered right, so a new one goes at once.
    const changed = await post('onboarding-management-private/phone', token, { telephoneCountry: 'FR', telephoneNumber: '0612345678' });
    expect(changed.body).toMatchObject({ application: { answers: { telephoneNumber: '+33612345678' }, currentStep: 'confirm-telephone' } });
  });

  it('resends the SMS code only after the cooldown', async () => {
    const token = await application(`phone-resend-${dialect}@example.com`, '00000011B');
    await post('onboarding-management-private/personal-info', token, PERSON);
    await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '699000111' });
    expect((await post('onboarding-management-private/phone/resend', token)).body).toMatchObject({ code: 'RESEND_TOO_SOON' });
    const before = await lastText('+34699000111');
    server.clock.offsetMs += 31_000;
    expect((await post('onboarding-management-private/phone/resend', token)).status).toBe(200);
    const after = await lastText('+34699000111');
    expect(after).not.toBe(before);
    expect((await post('onboarding-management-private/phone/verify', token, { code: codeIn(after) })).body).toMatchObject({ next: 'register-as' });
  });

  it('sends no more codes once the bank cannot serve the applicant', async () => {
    const token = await application(`phone-closed-${dialect}@example.com`, '00000012N');
    await post('onboarding-management-private/personal-info', token, PERSON);
    await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '699000222' });
    const sent = await lastText('+34699000222');
    // A residence abroad closes the application, with a code still open.
    expect((await post('onboarding-management-private/personal-info', token, { ...PERSON, residenceCountry: 'FR' })).body).toMatchObject({ application: { status: 'not-allowed' } });
    server.clock.offsetMs += 31_000;
    // Its path now ends at the refusal page: the phone's steps are no longer on it.
    expect(await post('onboarding-management-private/phone/resend', token)).toEqual({ status: 409, body: expect.objectContaining({ code: 'STEP_NOT_ON_PATH' }) });
    expect(await lastText('+34699000222')).toBe(sent);
  });

  it('six numbers asked at once, the first code included, text one of them; a resend racing a new number texts once', async () => {
    const token = await application(`phone-burst-${dialect}@example.com`, '00000013J');
    await post('onboarding-management-private/personal-info', token, PERSON);
    const numbers = Array.from({ length: 6 }, (_, index) => `69900030${index}`);
    const texted = async () => (await Promise.all(numbers.map((number) => server.app.db.selectFrom('outbox').select('id').where('recipient', '=', `+34${number}`).execute()))).flat().length;

    const answers = await Promise.all(numbers.map((telephoneNumber) => post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused).toMatchObject({ status: 429, body: { code: 'RESEND_TOO_SOON' } });
    expect(await texted()).toBe(1);

    // Once the cooldown is over, a resend and a new number at once: one of them texts. The other is too soon, or
    // finds its code replaced by the new number's (410).
    server.clock.offsetMs += 31_000;
    const [resent, changed] = await Promise.all([
      post('onboarding-management-private/phone/resend', token),
      post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '699000399' }),
    ]);
    expect([resent, changed].filter((answer) => answer.status === 200)).toHaveLength(1);
    expect([resent, changed].filter((answer) => answer.status !== 200).map((answer) => answer.body.code)).toEqual([expect.stringMatching(/^(RESEND_TOO_SOON|CODE_EXPIRED)$/)]);
    expect((await texted()) + (await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', '+34699000399').execute()).length).toBe(2);
  });

  describe('what changes between the first reading of the application and its save', () => {
    const applicationOf = async (token: string) => (await server.app.applications.find((await server.app.onboardingTokens.verify(token)).applicationId))!;

    it('a number asked for while the application is signed or closed is not saved, nor texted', async () => {
      const token = await application(`phone-closed-meanwhile-${dialect}@example.com`, '00000014Z');
      await post('onboarding-management-private/personal-info', token, PERSON);
      const restore = afterNextCall(server.app.codes, 'claimTurn', async () => {
        const current = await applicationOf(token);
        await server.app.applications.save(current, { status: 'pending-review' }, new Date());
      });
      try {
        const answer = await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '699000501' });
        expect(answer).toMatchObject({ status: 409, body: { code: 'APPLICATION_CLOSED' } });
      } finally {
        restore();
      }
      expect((await applicationOf(token)).answers.telephoneNumber).toBeUndefined();
      expect(await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', '+34699000501').execute()).toEqual([]);
    });

    it("a code answered while another number is saved confirms neither: the new number's code must be", async () => {
      const token = await application(`phone-changed-meanwhile-${dialect}@example.com`, '00000015S');
      await post('onboarding-management-private/personal-info', token, PERSON);
      await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '699000601' });
      const code = codeIn(await lastText('+34699000601'));
      const restore = afterNextCall(server.app.codes, 'checkLatest', async () => {
        const current = await applicationOf(token);
        await server.app.applications.save(current, { answers: { ...current.answers, telephoneNumber: '+34699000602' } }, new Date());
      });
      try {
        expect(await post('onboarding-management-private/phone/verify', token, { code })).toMatchObject({ status: 410, body: { code: 'CODE_EXPIRED' } });
      } finally {
        restore();
      }
      expect((await applicationOf(token)).completedSteps).not.toContain('confirm-telephone');
    });
  });
});
