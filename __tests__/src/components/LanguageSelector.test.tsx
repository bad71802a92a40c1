import { screen, within } from '@testing-library/react';
import { LanguageSelector } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

describe('LanguageSelector', () => {
  it('is a labelled group of ES and EN, each named in its own language', () => {
    renderWithIntl(<LanguageSelector locale="es" onChange={() => {}} />);
    const group = screen.getByRole('group', { name: 'Idioma' });
    const spanish = within(group).getByRole('button', { name: 'ES Español' });
    const english = within(group).getByRole('button', { name: 'EN English' });
    expect(spanish).toHaveTextContent('ES');
    expect(english).toHaveTextContent('EN');
    expect(spanish).toHaveAttribute('lang', 'es');
    expect(english).toHaveAttribute('lang', 'en');
  });

  it('marks the current language pressed', () => {
    const { rerender } = renderWithIntl(<LanguageSelector locale="es" onChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'ES Español' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'EN English' })).toHaveAttribute('aria-pressed', 'false');

    rerender(<LanguageSelector locale="en" onChange={() => {}} />);
    expect(screen.getByRole('button', { name: 'ES Español' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('button', { name: 'EN English' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('asks for the other language, and not for the current one', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<LanguageSelector locale="es" onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'ES Español' }));
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'EN English' }));
    expect(onChange).toHaveBeenCalledWith('en');
  });

  it('labels the group in English', () => {
    renderWithIntl(<LanguageSelector locale="en" onChange={() => {}} />, { locale: 'en' });
    expect(screen.getByRole('group', { name: 'Language' })).toBeInTheDocument();
  });
});
