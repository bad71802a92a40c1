import { screen } from '@testing-library/react';
import { useState } from 'react';
import { Combobox, searchable, type ComboboxOption } from '../../../src/components';
import { renderWithIntl } from './renderWithIntl';

const COUNTRIES: ComboboxOption[] = [
  { value: 'DE', label: 'Alemania' },
  { value: 'ES', label: 'España' },
  { value: 'FR', label: 'Francia' },
  { value: 'PT', label: 'Portugal' },
];

/** A Combobox as a form holds it: the value is state, every change is reported to `onChange`. */
function Country({
  initial = '',
  onChange,
  options = COUNTRIES,
  search,
}: {
  initial?: string;
  onChange: (value: string) => void;
  options?: ComboboxOption[];
  search?: (query: string) => readonly ComboboxOption[];
}) {
  const [value, setValue] = useState(initial);
  return (
    <Combobox
      label="País"
      name="country"
      options={options}
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
      noMatches="Nada coincide con lo que has escrito"
      search={search}
    />
  );
}

const field = () => screen.getByRole('combobox', { name: 'País' });
const optionTexts = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('Combobox', () => {
  it('finds "España" when "espana" is typed, accents and case aside', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country onChange={onChange} />);
    await user.type(field(), 'ESPANA');
    expect(optionTexts()).toEqual(['España']);
    expect(searchable(' Ésta ÑOÑA ')).toBe('esta nona');
  });

  it('ArrowDown and Enter choose the active option, and the form gets its value', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country onChange={onChange} />);
    field().focus();
    // The first ArrowDown opens the list on the first option, the second moves to the next.
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('ES');
    expect(field()).toHaveValue('España');
    expect(field()).toHaveAttribute('aria-expanded', 'false');
  });

  it('chooses the only match of what was typed with Enter', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country onChange={onChange} />);
    await user.type(field(), 'port{Enter}');
    expect(onChange).toHaveBeenCalledWith('PT');
    expect(field()).toHaveValue('Portugal');
  });

  it('aria-expanded and aria-activedescendant follow the list and the active option', async () => {
    const { user } = renderWithIntl(<Country onChange={jest.fn()} />);
    const input = field();
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(input).not.toHaveAttribute('aria-activedescendant');
    expect(screen.getByRole('listbox', { hidden: true })).not.toBeVisible();

    input.focus();
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('listbox')).toBeVisible();
    expect(input.getAttribute('aria-controls')).toBe(screen.getByRole('listbox').id);
    const activeId = () => input.getAttribute('aria-activedescendant');
    expect(document.getElementById(activeId()!)).toHaveTextContent('Alemania');

    await user.keyboard('{ArrowDown}');
    expect(document.getElementById(activeId()!)).toHaveTextContent('España');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    // Up from the first option wraps around to the last.
    expect(document.getElementById(activeId()!)).toHaveTextContent('Portugal');
  });

  it('opens on the chosen option', async () => {
    const { user } = renderWithIntl(<Country initial="FR" onChange={jest.fn()} />);
    field().focus();
    await user.keyboard('{ArrowDown}');
    expect(document.getElementById(field().getAttribute('aria-activedescendant')!)).toHaveTextContent('Francia');
    expect(screen.getByRole('option', { name: 'Francia' })).toHaveAttribute('aria-selected', 'true');
  });

  it('Escape closes the list and puts back the chosen option', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country initial="FR" onChange={onChange} />);
    await user.clear(field());
    await user.type(field(), 'ale');
    expect(field()).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    expect(field()).toHaveAttribute('aria-expanded', 'false');
    expect(field()).not.toHaveAttribute('aria-activedescendant');
    expect(field()).toHaveValue('Francia');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('says when nothing matches', async () => {
    const { user } = renderWithIntl(<Country onChange={jest.fn()} />);
    await user.type(field(), 'zzz');
    expect(screen.getByRole('option')).toHaveTextContent('Nada coincide con lo que has escrito');
    expect(screen.getByRole('option')).toHaveAttribute('aria-disabled', 'true');
    expect(field()).not.toHaveAttribute('aria-activedescendant');
  });

  it('leaving with text that names no option keeps the previous value', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country initial="FR" onChange={onChange} />);
    await user.clear(field());
    await user.type(field(), 'zzz');
    await user.tab();
    expect(onChange).not.toHaveBeenCalledWith('zzz');
    expect(onChange).not.toHaveBeenCalledWith('');
    expect(field()).toHaveValue('Francia');
  });

  it('leaving with the name of an option, typed without its accent, chooses it', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country initial="FR" onChange={onChange} />);
    await user.clear(field());
    await user.type(field(), 'espana');
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith('ES');
    expect(field()).toHaveValue('España');
  });

  it('leaving an emptied field clears the value', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country initial="FR" onChange={onChange} />);
    await user.clear(field());
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith('');
    expect(field()).toHaveValue('');
  });

  it('clicking an option chooses it', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(<Country onChange={onChange} />);
    await user.click(field());
    await user.click(screen.getByRole('option', { name: 'Portugal' }));
    expect(onChange).toHaveBeenCalledWith('PT');
    expect(field()).toHaveValue('Portugal');
  });

  it('searches the prefix too, and shows it before the label', async () => {
    const onChange = jest.fn();
    const { user } = renderWithIntl(
      <Country
        onChange={onChange}
        options={[
          { value: 'ES', label: 'España', prefix: '+34' },
          { value: 'PT', label: 'Portugal', prefix: '+351' },
        ]}
      />,
    );
    await user.type(field(), '+351{Enter}');
    expect(onChange).toHaveBeenCalledWith('PT');
    expect(field()).toHaveValue('+351 Portugal');
  });

  it('lists what its search returns, in that order, and chooses from it', async () => {
    const onChange = jest.fn();
    // A search that knows what the labels do not say: "portuguese" is Portugal, "iberia" both, Spain first.
    const search = (query: string) =>
      ({ portuguese: [COUNTRIES[3]], iberia: [COUNTRIES[1], COUNTRIES[3]] })[query.trim().toLowerCase()] ?? [];
    const { user } = renderWithIntl(<Country onChange={onChange} search={search} />);
    await user.type(field(), 'iberia');
    expect(optionTexts()).toEqual(['España', 'Portugal']);
    await user.clear(field());
    await user.type(field(), 'portuguese{Enter}');
    expect(onChange).toHaveBeenCalledWith('PT');
    expect(field()).toHaveValue('Portugal');
  });

  it("shows an option's detail under its label, as part of its name", async () => {
    const { user } = renderWithIntl(
      <Country onChange={jest.fn()} options={[{ value: '1.671.5', label: 'De un tenedor', prefix: '1.671.5', detail: 'Servicios en restaurantes' }]} />,
    );
    await user.click(field());
    expect(screen.getByRole('option', { name: '1.671.5 De un tenedor Servicios en restaurantes' })).toBeInTheDocument();
  });

  it('ties its error text and marks itself invalid', () => {
    renderWithIntl(
      <Combobox label="País" name="country" options={COUNTRIES} value="" onChange={jest.fn()} noMatches="—" error errorText="Elige un país de la lista" description="Donde vives" />,
    );
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveAccessibleDescription('Donde vives Elige un país de la lista');
  });
});
