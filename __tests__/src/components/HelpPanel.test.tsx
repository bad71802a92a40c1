import { screen, within } from '@testing-library/react';
import { HelpPanel } from '../../../src/components';
import { phoneHref } from '../../../src/config/phoneHref';
import { renderWithIntl } from './renderWithIntl';

const props = { supportPhone: '900 123 456', privacyUrl: 'https://legal.example.com/privacy.pdf' };

describe('HelpPanel', () => {
  it('is a complementary landmark with the phone, hours and privacy policy in Spanish', () => {
    renderWithIntl(<HelpPanel {...props} />);
    const panel = screen.getByRole('complementary', { name: '¿Necesitas ayuda?' });
    expect(within(panel).getByRole('heading', { name: '¿Necesitas ayuda?' })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: '900 123 456' })).toHaveAttribute('href', 'tel:900123456');
    expect(panel).toHaveTextContent('De lunes a viernes de 9:00 a 18:00');

    const privacy = within(panel).getByRole('link', { name: /Política de privacidad/ });
    expect(privacy).toHaveAttribute('href', props.privacyUrl);
    expect(privacy).toHaveAttribute('target', '_blank');
    expect(privacy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(privacy).toHaveAccessibleName('Política de privacidad (se abre en una pestaña nueva)');
  });

  it('says the same in English', () => {
    renderWithIntl(<HelpPanel {...props} supportPhone="+34 910 000 000" />, { locale: 'en' });
    const panel = screen.getByRole('complementary', { name: 'Need help?' });
    expect(within(panel).getByRole('link', { name: '+34 910 000 000' })).toHaveAttribute('href', 'tel:+34910000000');
    expect(panel).toHaveTextContent('Monday to Friday 9:00 to 18:00');
    expect(within(panel).getByRole('link', { name: /Privacy policy/ })).toBeInTheDocument();
  });

  it('offers the diagnostics download only when it can be done', async () => {
    const { rerender, user } = renderWithIntl(<HelpPanel {...props} />);
    expect(screen.queryByRole('button', { name: 'Descargar diagnóstico' })).not.toBeInTheDocument();

    const onDownloadDiagnostics = jest.fn();
    rerender(<HelpPanel {...props} onDownloadDiagnostics={onDownloadDiagnostics} />);
    const button = screen.getByRole('button', { name: 'Descargar diagnóstico' });
    expect(button).toHaveAccessibleDescription(/equipo de soporte/);
    await user.click(button);
    expect(onDownloadDiagnostics).toHaveBeenCalledTimes(1);
  });

  it('dials only digits and a leading plus', () => {
    expect(phoneHref(' +34 (91) 000-00-00 ')).toBe('+34910000000');
    expect(phoneHref('900 12 34 56')).toBe('900123456');
  });
});
