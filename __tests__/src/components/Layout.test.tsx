import { screen } from '@testing-library/react';
import { HelpPanel, LanguageSelector, Layout } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

function Screen({ locale = 'es' as const }) {
  return (
    <Layout
      languageSelector={<LanguageSelector locale={locale} onChange={() => {}} />}
      helpPanel={<HelpPanel supportPhone="900 123 456" privacyUrl="https://legal.example.com/privacy.pdf" />}
    >
      <h1>Accede a tu cuenta</h1>
    </Layout>
  );
}

describe('Layout', () => {
  it('frames the screen: banner with the product and languages, main content, help', () => {
    renderWithIntl(<Screen />);
    const banner = screen.getByRole('banner');
    expect(banner).toHaveTextContent('Divilo');
    expect(banner).toContainElement(screen.getByRole('group', { name: 'Idioma' }));
    const main = screen.getByRole('main');
    expect(main).toHaveAttribute('id', 'main');
    expect(main).toContainElement(screen.getByRole('heading', { level: 1, name: 'Accede a tu cuenta' }));
    expect(main).not.toContainElement(screen.getByRole('complementary'));
  });

  it('puts help after the content, in the same place on every screen', () => {
    renderWithIntl(<Screen />);
    const main = screen.getByRole('main');
    const help = screen.getByRole('complementary');
    expect(main.compareDocumentPosition(help) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('starts with a skip link to the main content that moves focus there', async () => {
    const { user } = renderWithIntl(<Screen />);
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Saltar al contenido principal' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main');
    // jsdom does not follow fragment links; the target must be focusable for the browser to move focus.
    expect(screen.getByRole('main')).toHaveAttribute('tabindex', '-1');
  });

  it('names the skip link in English', () => {
    renderWithIntl(<Screen />, { locale: 'en' });
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toBeInTheDocument();
  });
});
