import { screen } from '@testing-library/react';
import { GlobalModal } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

const errorTexts = {
  es: { 'error.sessionExpired': 'Tu sesión ha caducado.', 'error.tooMany': 'Espera {minutes} minutos.' },
  en: { 'error.sessionExpired': 'Your session has expired.', 'error.tooMany': 'Wait {minutes} minutes.' },
};

describe('GlobalModal', () => {
  it('shows nothing without a message', () => {
    renderWithIntl(<GlobalModal messageId={null} onAccept={() => {}} />, { messages: errorTexts.es });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the translated message and accepts with the Aceptar button', async () => {
    const onAccept = jest.fn();
    const { user } = renderWithIntl(<GlobalModal messageId="error.sessionExpired" onAccept={onAccept} />, {
      messages: errorTexts.es,
    });
    const dialog = screen.getByRole('alertdialog', { name: 'Aviso' });
    expect(dialog).toHaveAccessibleDescription('Tu sesión ha caducado.');
    const accept = screen.getByRole('button', { name: 'Aceptar' });
    expect(accept).toHaveFocus();
    await user.click(accept);
    expect(onAccept).toHaveBeenCalledTimes(1);
  });

  it('translates into English with values', () => {
    renderWithIntl(<GlobalModal messageId="error.tooMany" values={{ minutes: 5 }} onAccept={() => {}} />, {
      locale: 'en',
      messages: errorTexts.en,
    });
    expect(screen.getByRole('alertdialog', { name: 'Notice' })).toHaveTextContent('Wait 5 minutes.');
    expect(screen.getByRole('button', { name: 'Accept' })).toBeInTheDocument();
  });

  it('clears the message when closed another way', async () => {
    const onAccept = jest.fn();
    const { user } = renderWithIntl(<GlobalModal messageId="error.sessionExpired" onAccept={onAccept} />, {
      messages: errorTexts.es,
    });
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(onAccept).toHaveBeenCalledTimes(2);
  });

  it('shows a generic text for an id the locale does not know, never the id', () => {
    renderWithIntl(<GlobalModal messageId="error.unheardOf" onAccept={() => {}} />);
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveTextContent('Algo ha ido mal. Inténtalo de nuevo.');
    expect(dialog).not.toHaveTextContent('error.unheardOf');
  });
});
