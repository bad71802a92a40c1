import { resumePath } from '../../../src/app/guards';
import { carryQuery } from '../../../src/routing/query';
import { routeByPath } from '../../../src/routing/routes';

describe('carryQuery', () => {
  it('carries the current query to the next route', () => {
    expect(carryQuery('/personal-info', '?promotionalCode=AUTONOMO25&utm_source=x')).toBe(
      '/personal-info?promotionalCode=AUTONOMO25&utm_source=x',
    );
  });

  it("keeps the target's own parameters over carried ones", () => {
    expect(carryQuery('/signUp?promo=B', '?promo=A&lang=EN')).toBe('/signUp?promo=B&lang=EN');
  });

  it('does not carry anything to welcome', () => {
    expect(carryQuery('/welcome', '?promotionalCode=X')).toBe('/welcome');
  });

  it('leaves a path alone when there is no query', () => {
    expect(carryQuery('/login', '')).toBe('/login');
  });
});

describe('routes', () => {
  it('finds routes by path whatever the case or a trailing slash', () => {
    expect(routeByPath('/signup')?.name).toBe('signUp');
    expect(routeByPath('/login/confirm-telephone/')?.name).toBe('login-confirm-telephone');
    expect(routeByPath('/nope')).toBeUndefined();
  });
});

describe('resumePath', () => {
  it('resumes a remembered onboarding page from the entry paths, with the query', () => {
    expect(resumePath('contact-phone', { pathname: '/', search: '?promo=X' })).toBe('/contact-phone?promo=X');
    expect(resumePath('royal-owners', { pathname: '/signUp', search: '' })).toBe('/royal-owners');
  });

  it('does not resume an unknown or public page, nor over a page the user opened on purpose', () => {
    expect(resumePath('no-such-page', { pathname: '/', search: '' })).toBeNull();
    expect(resumePath('login', { pathname: '/', search: '' })).toBeNull();
    expect(resumePath('contact-phone', { pathname: '/login', search: '' })).toBeNull();
    expect(resumePath(null, { pathname: '/', search: '' })).toBeNull();
  });
});
