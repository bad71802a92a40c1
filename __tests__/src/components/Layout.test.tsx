import { screen, within } from '@testing-library/react';
import { HelpPanel, LanguageSelector, Layout } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

function Screen({ locale = 'es' as const }) {
  return (
    <Layout
      languageSelector={<LanguageSelector locale={locale} onChange={() => {}} />}
      helpPanel={<HelpPanel supportPhone="900 123 456" privacyUrl="https://legal.example.com/privacy.pdf" />}
      helpSheet={<HelpPanel supportPhone="900 123 456" privacyUrl="https://legal.example.com/privacy.pdf" inDialog />}
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

  it("opens the help as a sheet from the header's Help button (phones), and gives focus back when it closes", async () => {
    const { user } = renderWithIntl(<Screen />);
    const button = screen.getByRole('button', { name: 'Ayuda' });
    expect(screen.getByRole('banner')).toContainElement(button);
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(button);
    const sheet = screen.getByRole('dialog', { name: '¿Necesitas ayuda?' });
    expect(sheet).toHaveFocus();
    expect(within(sheet).getByRole('link', { name: '900 123 456' })).toHaveAttribute('href', 'tel:900123456');
    expect(within(sheet).getByText('De lunes a viernes de 9:00 a 18:00')).toBeInTheDocument();
    // No second heading or landmark inside the sheet: the dialog's title names it.
    expect(within(sheet).queryByRole('complementary')).not.toBeInTheDocument();
    expect(within(sheet).getAllByRole('heading')).toHaveLength(1);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});
