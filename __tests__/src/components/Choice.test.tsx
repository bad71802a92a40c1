import { screen } from '@testing-library/react';
import { Checkbox, RadioGroup } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

const ID_TYPES = [
  { value: 'nif', label: 'DNI o NIE' },
  { value: 'passport', label: 'Pasaporte', hint: 'Si no tienes DNI ni NIE' },
];

describe('RadioGroup', () => {
  it('names its question and answers the chosen value', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<RadioGroup legend="Tu documento" name="idType" options={ID_TYPES} value="nif" onChange={onChange} />);
    const group = screen.getByRole('group', { name: 'Tu documento' });
    expect(group).not.toHaveAttribute('aria-invalid');
    expect(screen.getByRole('radio', { name: 'DNI o NIE' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /Pasaporte/ }));
    expect(onChange).toHaveBeenCalledWith('passport');
    expect(screen.getByText('Si no tienes DNI ni NIE')).toBeInTheDocument();
  });

  it('checks the radio of the value it is given', () => {
    renderWithIntl(<RadioGroup legend="Tu documento" name="idType" options={ID_TYPES} value="passport" onChange={jest.fn()} />);
    expect(screen.getByRole('radio', { name: /Pasaporte/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'DNI o NIE' })).not.toBeChecked();
  });

  it('ties its error text to the group with aria-describedby, after its description', () => {
    renderWithIntl(
      <RadioGroup legend="Tu documento" description="El que usarás para entrar" name="idType" options={ID_TYPES} value="" onChange={jest.fn()} error errorText="Elige una de las opciones" />,
    );
    const group = screen.getByRole('group', { name: 'Tu documento' });
    expect(group).toHaveAttribute('aria-invalid', 'true');
    expect(group).toHaveAccessibleDescription('El que usarás para entrar Elige una de las opciones');
    const errorId = group.getAttribute('aria-describedby')!.split(' ')[1];
    expect(document.getElementById(errorId)).toHaveTextContent('Elige una de las opciones');
  });

  it('describes nothing while there is no error', () => {
    renderWithIntl(<RadioGroup legend="Tu documento" name="idType" options={ID_TYPES} value="" onChange={jest.fn()} errorText="Elige una de las opciones" />);
    expect(screen.getByRole('group', { name: 'Tu documento' })).not.toHaveAttribute('aria-describedby');
    expect(screen.queryByText('Elige una de las opciones')).not.toBeInTheDocument();
  });

  it('hands its ref to the first radio, so a form can move the focus to it', () => {
    const ref = { current: null as HTMLInputElement | null };
    renderWithIntl(<RadioGroup legend="Tu documento" name="idType" options={ID_TYPES} value="" onChange={jest.fn()} ref={ref} />);
    expect(ref.current).toBe(screen.getByRole('radio', { name: 'DNI o NIE' }));
  });
});

describe('Checkbox', () => {
  it('answers true when ticked and false when unticked', async () => {
    const onChange = jest.fn();
    const { user, rerender } = renderWithIntl(<Checkbox label="Acepto la política de privacidad" name="privacyPolicy" checked={false} onChange={onChange} />);
    await user.click(screen.getByRole('checkbox', { name: 'Acepto la política de privacidad' }));
    expect(onChange).toHaveBeenLastCalledWith(true);
    rerender(<Checkbox label="Acepto la política de privacidad" name="privacyPolicy" checked onChange={onChange} />);
    expect(screen.getByRole('checkbox')).toBeChecked();
    await user.click(screen.getByRole('checkbox'));
    expect(onChange).toHaveBeenLastCalledWith(false);
  });

  it('ties its error text with aria-describedby and marks itself invalid', () => {
    renderWithIntl(<Checkbox label="Acepto" name="privacyPolicy" checked={false} onChange={jest.fn()} error errorText="Tienes que aceptarlo para continuar" />);
    const box = screen.getByRole('checkbox', { name: 'Acepto' });
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('Tienes que aceptarlo para continuar');
  });

  it('describes nothing while there is no error', () => {
    renderWithIntl(<Checkbox label="Acepto" name="privacyPolicy" checked={false} onChange={jest.fn()} errorText="Tienes que aceptarlo para continuar" />);
    const box = screen.getByRole('checkbox', { name: 'Acepto' });
    expect(box).not.toHaveAttribute('aria-invalid');
    expect(box).not.toHaveAttribute('aria-describedby');
  });
});
