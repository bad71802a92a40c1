import { useId, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode, type Ref } from 'react';
import { ErrorIcon } from './icons';
import './TextInput.css';
import './Combobox.css';

export interface ComboboxOption {
  value: string;
  label: string;
  /** Shown before the label and searched too (a code, a dialling prefix). */
  prefix?: string;
  /** A second, quieter line under the label that says what it belongs to (an IAE epígrafe's grupo). */
  detail?: string;
}

export interface ComboboxProps {
  label: ReactNode;
  description?: ReactNode;
  name: string;
  options: readonly ComboboxOption[];
  /** The chosen option's value, '' when none. */
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  error?: boolean;
  errorText?: ReactNode;
  /** Shown in the list when nothing matches what was typed. */
  noMatches: string;
  placeholder?: string;
  /** At most this many matches are listed: typing narrows them. */
  maxResults?: number;
  /**
   * The options that match what was typed, the best first. Without it an option matches when its prefix and label
   * contain every word typed, accents and case aside, in the list's order.
   */
  search?(query: string): readonly ComboboxOption[];
  autoComplete?: string;
  ref?: Ref<HTMLInputElement>;
  disabled?: boolean;
}

/** Lower case without accents, so "espana" finds "España" and "cafe" finds "Café". */
export function searchable(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

const keepFocus = (event: MouseEvent) => event.preventDefault();

const textOf = (option: ComboboxOption) => (option.prefix ? `${option.prefix} ${option.label}` : option.label);

/**
 * A searchable list (the ARIA 1.2 editable combobox with a list popup): type to narrow, arrows to move, Enter to
 * choose, Escape to close. The form gets the option's value, never the text typed; leaving the field with text
 * that names no option keeps the previous choice.
 */
export function Combobox({
  label,
  description,
  name,
  options,
  value,
  onChange,
  onBlur,
  error = false,
  errorText,
  noMatches,
  placeholder,
  maxResults = 50,
  search,
  autoComplete = 'off',
  ref,
  disabled,
}: ComboboxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const selected = options.find((option) => option.value === value);
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);

  const matches = useMemo(() => {
    if (query === null || query.trim() === '') return options.slice(0, maxResults);
    if (search) return search(query).slice(0, maxResults);
    const words = searchable(query).split(/\s+/);
    return options.filter((option) => {
      const text = searchable(textOf(option));
      return words.every((word) => text.includes(word));
    }).slice(0, maxResults);
  }, [options, query, maxResults, search]);

  const shown = query ?? (selected ? textOf(selected) : '');
  const showError = error && Boolean(errorText);
  const describedBy = [description ? `${id}-description` : null, showError ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

  // The items are made again only when the matches, the active one or the choice change, not on every render of
  // the form around the field (each keystroke elsewhere); a click reaches the list, which finds the item.
  const items = useMemo(
    () =>
      matches.map((option, index) => (
        <li
          key={option.value}
          id={`${id}-option-${index}`}
          data-index={index}
          role="option"
          aria-selected={option.value === value}
          className={['dv-combobox__option', index === active && 'dv-combobox__option--active'].filter(Boolean).join(' ')}
          // Keeps the focus in the field, so choosing does not first count as leaving it.
          onMouseDown={keepFocus}
        >
          {option.prefix && <span className="dv-combobox__prefix">{option.prefix}</span>}
          {option.detail ? (
            <span className="dv-combobox__text">
              <span>{option.label}</span>
              <span className="dv-combobox__detail">{option.detail}</span>
            </span>
          ) : (
            <span className="dv-combobox__label">{option.label}</span>
          )}
        </li>
      )),
    [matches, active, value, id],
  );

  const choose = (option: ComboboxOption) => {
    onChange(option.value);
    setQuery(null);
    setOpen(false);
  };

  const chooseClicked = (event: MouseEvent<HTMLUListElement>) => {
    const item = (event.target as Element).closest('[data-index]');
    const option = item && matches[Number(item.getAttribute('data-index'))];
    if (option) choose(option);
  };

  const moveTo = (index: number) => {
    setActive(index);
    listRef.current?.children[index]?.scrollIntoView?.({ block: 'nearest' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        setOpen(true);
        moveTo(Math.max(0, matches.findIndex((option) => option.value === value)));
        return;
      }
      const step = event.key === 'ArrowDown' ? 1 : -1;
      moveTo((active + step + matches.length) % Math.max(1, matches.length));
    } else if (event.key === 'Enter' && open && matches[active]) {
      event.preventDefault();
      choose(matches[active]);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
      setQuery(null);
    }
  };

  const leave = () => {
    if (query !== null) {
      const typed = searchable(query);
      const exact = options.find((option) => searchable(option.label) === typed || searchable(textOf(option)) === typed);
      if (exact) onChange(exact.value);
      else if (typed === '') onChange('');
      else if (matches.length === 1) onChange(matches[0].value);
      setQuery(null);
    }
    setOpen(false);
    onBlur?.();
  };

  return (
    <div className={['dv-field', 'dv-combobox', error && 'dv-field--error'].filter(Boolean).join(' ')}>
      <label className="dv-field__label" htmlFor={id}>
        {label}
      </label>
      {description && (
        <p id={`${id}-description`} className="dv-field__description">
          {description}
        </p>
      )}
      <div className="dv-field__control">
        <input
          ref={ref}
          id={id}
          name={name}
          className="dv-field__input"
          type="text"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={listId}
          aria-activedescendant={open && matches[active] ? `${id}-option-${active}` : undefined}
          aria-invalid={error || undefined}
          aria-describedby={describedBy}
          autoComplete={autoComplete}
          spellCheck={false}
          placeholder={placeholder}
          disabled={disabled}
          value={shown}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
            setActive(0);
          }}
          onClick={() => setOpen(true)}
          onKeyDown={onKeyDown}
          onBlur={leave}
        />
        <span className="dv-field__end" aria-hidden="true">
          {error && <ErrorIcon className="dv-field__status dv-field__status--error" />}
          <span className="dv-combobox__chevron" />
        </span>
      </div>
      <ul id={listId} ref={listRef} role="listbox" className="dv-combobox__list" hidden={!open} aria-label={typeof label === 'string' ? label : undefined} onClick={chooseClicked}>
        {items}
        {matches.length === 0 && (
          <li className="dv-combobox__empty" role="option" aria-disabled="true" aria-selected={false}>
            {noMatches}
          </li>
        )}
      </ul>
      <p id={`${id}-error`} className="dv-field__error">
        {showError ? errorText : null}
      </p>
    </div>
  );
}
