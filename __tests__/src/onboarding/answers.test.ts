import { answersOf, EMPTY_ANSWERS } from '../../../src/onboarding/answers';

describe('the answers a screen starts from', () => {
  it('are the saved answers the record knows over empty values: no unknown key (a secret among them), no null', () => {
    const answers = answersOf(
      {
        firstName: 'Ana',
        countriesWhereOperate: ['ES', 'PT'],
        politicalPosition: false,
        reviewNotes: 'internal',
        diviloPassword: 'from-the-server',
        verificationEmailToken: 'email-token',
        birthDate: null,
        nationality: undefined,
      },
      'freelance',
    );
    expect(answers).toEqual({ ...EMPTY_ANSWERS, firstName: 'Ana', countriesWhereOperate: ['ES', 'PT'], politicalPosition: false, personType: 'freelance' });
    for (const unknown of ['reviewNotes', 'diviloPassword', 'verificationEmailToken']) expect(answers).not.toHaveProperty(unknown);
  });

  it('have no person type until one is saved', () => {
    expect(answersOf({ personType: 'company' }, null).personType).toBe('');
  });
});
