import { screen } from '@testing-library/react';
import { createRef } from 'react';
import { PasswordInput } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

describe('PasswordInput', () => {
  it('hides the password until the toggle is pressed, and hides it again', async () => {
    const { user } = renderWithIntl(<PasswordInput label="Contraseña" name="password" />);
    const input = screen.getByLabelText('Contraseña');
    const toggle = screen.getByRole('button', { name: 'Mostrar contraseña' });
    expect(input).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    expect(toggle).toHaveAttribute('aria-controls', input.id);

    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'text');
    expect(toggle).toHaveAttribute('aria-pressed', 'true');

    await user.click(toggle);
    expect(input).toHaveAttribute('type', 'password');
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
  });

  it('names the toggle in English', () => {
    renderWithIntl(<PasswordInput label="Password" />, { locale: 'en' });
    expect(screen.getByRole('button', { name: 'Show password' })).toBeInTheDocument();
  });

  it('allows pasting and passes autocomplete through', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(
      <PasswordInput label="Nueva contraseña" autoComplete="new-password" onChange={onChange} />,
    );
    const input = screen.getByLabelText('Nueva contraseña');
    expect(input).toHaveAttribute('autocomplete', 'new-password');
    await user.click(input);
    await user.paste('Secreta-2025');
    expect(input).toHaveValue('Secreta-2025');
    expect(onChange).toHaveBeenCalled();
  });

  it('defaults to current-password for password managers', () => {
    renderWithIntl(<PasswordInput label="Contraseña" />);
    expect(screen.getByLabelText('Contraseña')).toHaveAttribute('autocomplete', 'current-password');
  });

  it('shows the success tick, and the error wired like any field', () => {
    const { container, rerender } = renderWithIntl(<PasswordInput label="Contraseña" success />);
    expect(container.querySelector('.dv-field__status--success')).toBeInTheDocument();

    rerender(<PasswordInput label="Contraseña" error errorText="Mínimo 8 caracteres" />);
    const input = screen.getByLabelText('Contraseña');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Mínimo 8 caracteres');
  });

  it('hands its input to a ref', () => {
    const ref = createRef<HTMLInputElement>();
    renderWithIntl(<PasswordInput label="Contraseña" ref={ref} />);
    expect(ref.current).toBe(screen.getByLabelText('Contraseña'));
  });
});
