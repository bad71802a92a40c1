import { RouteTitle } from '../../../src/routing/RouteTitle';
import { renderWithIntl } from '../components/renderWithIntl';

describe('RouteTitle', () => {
  it('names the page after the screen, in the page\'s language, and moves focus to the heading', () => {
    const { unmount } = renderWithIntl(<RouteTitle name="login" />, { locale: 'en' });
    expect(document.title).toBe('Log in · Divilo');
    expect(document.activeElement?.tagName).toBe('H1');
    unmount();
    renderWithIntl(<RouteTitle name="recover-password-init" />, { locale: 'es' });
    expect(document.title).not.toBe('Log in · Divilo');
    expect(document.title).toMatch(/ · Divilo$/);
    expect(document.title).toBe(`${document.querySelector('h1')!.textContent} · Divilo`);
  });
});
