import { screen } from '@testing-library/react';
import { createRef } from 'react';
import { TextInput } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

describe('TextInput', () => {
  it('binds its label to the input and forwards native props', async () => {
    const onChange = jest.fn();
    const onBlur = jest.fn();
    const { user } = renderWithIntl(
      <TextInput
        label="Número de documento"
        name="username"
        autoComplete="username"
        inputMode="text"
        onChange={onChange}
        onBlur={onBlur}
      />,
    );
    const input = screen.getByRole('textbox', { name: 'Número de documento' });
    expect(input).toHaveAttribute('name', 'username');
    expect(input).toHaveAttribute('autocomplete', 'username');
    expect(input).toHaveAttribute('inputmode', 'text');
    await user.type(input, '12345678Z');
    expect(onChange).toHaveBeenCalledTimes(9);
    await user.tab();
    expect(onBlur).toHaveBeenCalledTimes(1);
  });

  it('gives each field its own id', () => {
    renderWithIntl(
      <>
        <TextInput label="Nombre" />
        <TextInput label="Apellido" />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Nombre' }).id).not.toBe(
      screen.getByRole('textbox', { name: 'Apellido' }).id,
    );
  });

  it('is described by its hint', () => {
    renderWithIntl(<TextInput label="DNI o NIE" description="Con la letra final" />);
    const input = screen.getByRole('textbox', { name: 'DNI o NIE' });
    expect(input).toHaveAccessibleDescription('Con la letra final');
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows the error text only while the error flag is set', () => {
    const { rerender } = renderWithIntl(
      <TextInput label="DNI o NIE" description="Con la letra final" errorText="El documento no es válido" />,
    );
    const input = screen.getByRole('textbox', { name: 'DNI o NIE' });
    expect(screen.queryByText('El documento no es válido')).not.toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(input).toHaveAccessibleDescription('Con la letra final');

    rerender(<TextInput label="DNI o NIE" description="Con la letra final" error errorText="El documento no es válido" />);
    expect(screen.getByText('El documento no es válido')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Con la letra final El documento no es válido');
  });

  it('keeps a describedby it is given', () => {
    renderWithIntl(
      <>
        <p id="rules">Entre 4 y 25 caracteres</p>
        <TextInput label="Usuario" aria-describedby="rules" error errorText="Demasiado corto" />
      </>,
    );
    expect(screen.getByRole('textbox', { name: 'Usuario' })).toHaveAccessibleDescription(
      'Demasiado corto Entre 4 y 25 caracteres',
    );
  });

  it('shows decorative status and slot icons hidden from screen readers', () => {
    const { container, rerender } = renderWithIntl(
      <TextInput label="Correo" success leftIcon={<svg data-icon="left" />} rightIcon={<svg data-icon="right" />} />,
    );
    expect(container.querySelector('.dv-field__status--success')).toHaveAttribute('aria-hidden', 'true');
    expect(container.querySelector('[data-icon="left"]')!.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(container.querySelector('[data-icon="right"]')!.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(container.querySelector('.dv-field__status--error')).toBeNull();

    // An error wins over success.
    rerender(<TextInput label="Correo" success error errorText="Revisa el correo" />);
    expect(container.querySelector('.dv-field__status--error')).toHaveAttribute('aria-hidden', 'true');
    expect(container.querySelector('.dv-field__status--success')).toBeNull();
  });

  it('hands its input to a ref, so a form can focus the first invalid field', () => {
    const ref = createRef<HTMLInputElement>();
    renderWithIntl(<TextInput label="Correo" ref={ref} />);
    ref.current!.focus();
    expect(screen.getByRole('textbox', { name: 'Correo' })).toHaveFocus();
  });

  it('takes focus when asked to', () => {
    renderWithIntl(<TextInput label="Correo" autoFocus />);
    expect(screen.getByRole('textbox', { name: 'Correo' })).toHaveFocus();
  });
});
