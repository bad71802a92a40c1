// The wizard as data, walked without rendering: the order of the steps, where the rules branch off, Back, the
// progress numbers, and that every place a rule can lead to is a route the app has.
import {
  STEPS,
  isStep,
  journey,
  previousStep,
  progressOf,
  stepById,
  type FlowAnswers,
  type OutcomeId,
} from '../../../src/onboarding/flow';
import { ROUTES, routeByName } from '../../../src/routing/routes';

const ids = (answers: FlowAnswers) => journey(answers).map((step) => step.id);

const freelancer: FlowAnswers = { residenceCountry: 'ES', personType: 'freelance' };
const company: FlowAnswers = { residenceCountry: 'ES', personType: 'company' };

const OUTCOMES: OutcomeId[] = ['already-exists', 'forbidden-user', 'company-error'];

describe('the freelancer journey', () => {
  it('walks every step in order, from /signUp to /welcome', () => {
    expect(ids(freelancer)).toEqual([
      'signUp',
      'reg-code',
      'personal-info',
      'contact-phone',
      'confirm-telephone',
      'register-as',
      'requirements-freelance',
      'your-activity',
      'fiscal-address',
      'tax-registration-income',
      'tell-us-more-freelance',
      'divilo-password',
      'check-identity',
      'check-identity-waiting',
      'docu-sign',
      'welcome',
    ]);
  });

  it('is the one walked before the person type is chosen', () => {
    expect(ids({})).toEqual(ids(freelancer));
    expect(ids({ personType: '' })).toEqual(ids(freelancer));
  });

  it('ends at /welcome, which leads nowhere', () => {
    expect(stepById('welcome')?.next(freelancer)).toBeUndefined();
  });
});

describe('the rules that branch off', () => {
  it('a company walks its own path, with its owners, and joins the closing steps', () => {
    expect(ids(company)).toEqual([
      'signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as',
      'requirements-company', 'about-company', 'about-company-info', 'about-company-address', 'articles-of-association',
      'corporate-tax', 'about-company-numbers', 'royal-owners', 'tell-us-more-company',
      'divilo-password', 'check-identity', 'check-identity-waiting', 'docu-sign', 'welcome',
    ]);
    expect(ids(company)).not.toContain('requirements-freelance');
  });

  it('an entity the bank does not serve (an association, a public body) ends at /about-company and leads to /company-error', () => {
    for (const cif of ['G28659678', 'Q2826000H', 'P2807900B']) {
      const refused = { ...company, cif };
      expect(ids(refused)[ids(refused).length - 1]).toBe('about-company');
      expect(stepById('about-company')?.next(refused)).toBe('company-error');
    }
    for (const cif of ['B12345674', 'A58818501']) expect(stepById('about-company')?.next({ ...company, cif })).toBe('about-company-info');
  });

  it('a residence outside Spain ends the journey at /personal-info and leads to /forbidden-user', () => {
    const outside = { residenceCountry: 'FR', personType: 'freelance' } as const;
    const walked = ids(outside);
    expect(walked[walked.length - 1]).toBe('personal-info');
    expect(stepById('personal-info')?.next(outside)).toBe('forbidden-user');
  });

  it('Spain, or no residence yet, goes on to /contact-phone', () => {
    expect(stepById('personal-info')?.next({ residenceCountry: 'ES' })).toBe('contact-phone');
    expect(stepById('personal-info')?.next({})).toBe('contact-phone');
  });
});

describe('Back', () => {
  it('has nowhere to go from the first step', () => {
    expect(previousStep('signUp', freelancer)).toBeUndefined();
  });

  it('goes from /your-activity to the freelancer checklist', () => {
    expect(previousStep('your-activity', freelancer)).toBe('requirements-freelance');
  });

  it('goes to the step walked just before, for every step after the first but the contract', () => {
    const walked = ids(freelancer);
    walked.slice(1).forEach((id, index) => expect(previousStep(id, freelancer)).toBe(id === 'docu-sign' ? undefined : walked[index]));
  });

  it('has none on the contract: the identity before it is verified for good (its waiting page would send the applicant straight back)', () => {
    expect(ids(freelancer)).toContain('docu-sign');
    expect(previousStep('docu-sign', freelancer)).toBeUndefined();
  });
});

describe('the progress', () => {
  it('counts the freelancer steps without /welcome, over four sections', () => {
    expect(progressOf('signUp', freelancer)).toEqual({ number: 1, total: 15, section: 'you', sections: ['you', 'business', 'security', 'contract'] });
    expect(progressOf('personal-info', freelancer)).toMatchObject({ number: 3, total: 15, section: 'you' });
    expect(progressOf('your-activity', freelancer)).toMatchObject({ number: 8, total: 15, section: 'business' });
    expect(progressOf('divilo-password', freelancer)).toMatchObject({ number: 12, total: 15, section: 'security' });
    expect(progressOf('docu-sign', freelancer)).toMatchObject({ number: 15, total: 15, section: 'contract' });
  });

  it("counts a company's own steps, over the four sections", () => {
    expect(progressOf('register-as', company)).toEqual({ number: 6, total: 19, section: 'business', sections: ['you', 'business', 'security', 'contract'] });
    expect(progressOf('royal-owners', company)).toMatchObject({ number: 14, total: 19, section: 'business' });
  });
});

describe('the steps as data', () => {
  it('saves each step with an endpoint at its own endpoint', () => {
    const endpoints = STEPS.flatMap((step) => (step.endpoint ? [step.endpoint] : []));
    expect(endpoints.length).toBeGreaterThan(0);
    expect(new Set(endpoints).size).toBe(endpoints.length);
  });

  it('has each id once, and finds each step by it', () => {
    expect(new Set(STEPS.map((step) => step.id)).size).toBe(STEPS.length);
    for (const step of STEPS) {
      expect(stepById(step.id)).toBe(step);
      expect(isStep(step.id)).toBe(true);
    }
  });

  it('tells steps from outcome pages and other routes', () => {
    for (const id of [...OUTCOMES, 'login', 'nowhere']) {
      expect(isStep(id)).toBe(false);
      expect(stepById(id)).toBeUndefined();
    }
  });

  it('every step and outcome page is a route; wizard pages need the onboarding token', () => {
    const routeNames = ROUTES.map((route) => route.name as string);
    const pages: string[] = [...STEPS.map((step) => step.id), ...OUTCOMES];
    for (const page of pages) expect(routeNames).toContain(page);
    for (const page of pages.filter((page) => page !== 'signUp')) expect(routeByName(page)?.access).toBe('token');
  });

  it('every page a rule can lead to is a route', () => {
    const answers: FlowAnswers[] = [freelancer, company, { residenceCountry: 'FR' }, {}];
    const routeNames = new Set<string>(ROUTES.map((route) => route.name));
    for (const step of STEPS) {
      for (const given of answers) {
        const next = step.next(given);
        if (next !== undefined) expect(routeNames.has(next)).toBe(true);
      }
    }
  });
});
