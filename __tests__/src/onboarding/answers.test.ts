import { answersOf, EMPTY_ANSWERS } from '../../../src/onboarding/answers';
import { STEP_SCHEMAS } from '../../../src/onboarding/stepSchemas';

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

it('take every field of every step\'s schema, starting empty: a step\'s fields are answers by its schema alone', () => {
  for (const schema of Object.values(STEP_SCHEMAS)) {
    for (const [name, field] of Object.entries(schema({ saved: {} }).fields)) {
      // Not answers: a confirmation given at that moment, and the person type (the application's own field).
      if (name === 'confirmNotServed' || name === 'personType') continue;
      const saved = field.type === 'array' ? ['ES'] : field.type === 'boolean' ? true : 'typed';
      expect(answersOf({ [name]: saved }, null)).toHaveProperty(name, saved);
      if (field.type !== 'boolean') expect(EMPTY_ANSWERS).toHaveProperty(name, field.type === 'array' ? [] : '');
    }
  }
});
