import { useId, type ReactNode, type Ref } from 'react';
import './TextInput.css';
import './Choice.css';

interface ErrorProps {
  error?: boolean;
  errorText?: ReactNode;
}

export interface ChoiceOption {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
}

export interface RadioGroupProps extends ErrorProps {
  legend: ReactNode;
  description?: ReactNode;
  name: string;
  options: readonly ChoiceOption[];
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  /** The first radio, so a form can move focus to the group. */
  ref?: Ref<HTMLInputElement>;
}

/** One answer of a few, each a large target with an optional hint; the legend names the question. */
export function RadioGroup({ legend, description, name, options, value, onChange, onBlur, error = false, errorText, ref }: RadioGroupProps) {
  const id = useId();
  const showError = error && Boolean(errorText);
  const describedBy = [description ? `${id}-description` : null, showError ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={['dv-choice-group', error && 'dv-choice-group--error'].filter(Boolean).join(' ')} aria-describedby={describedBy} aria-invalid={error || undefined}>
      <legend className="dv-choice-group__legend">{legend}</legend>
      {description && (
        <p id={`${id}-description`} className="dv-field__description">
          {description}
        </p>
      )}
      <div className="dv-choice-group__options">
        {options.map((option, index) => (
          <label key={option.value} className="dv-choice">
            <input
              ref={index === 0 ? ref : undefined}
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              onChange={() => onChange(option.value)}
              onBlur={onBlur}
            />
            <span className="dv-choice__text">
              <span>{option.label}</span>
              {option.hint && <span className="dv-choice__hint">{option.hint}</span>}
            </span>
          </label>
        ))}
      </div>
      <p id={`${id}-error`} className="dv-field__error">
        {showError ? errorText : null}
      </p>
    </fieldset>
  );
}

export interface CheckboxProps extends ErrorProps {
  label: ReactNode;
  name: string;
  checked: boolean;
  onChange(checked: boolean): void;
  onBlur?(): void;
  ref?: Ref<HTMLInputElement>;
}

/** A box to tick (a consent); its error is tied to it. */
export function Checkbox({ label, name, checked, onChange, onBlur, error = false, errorText, ref }: CheckboxProps) {
  const id = useId();
  const showError = error && Boolean(errorText);
  return (
    <div className={['dv-choice-group', error && 'dv-choice-group--error'].filter(Boolean).join(' ')}>
      <label className="dv-choice dv-choice--plain" htmlFor={id}>
        <input
          ref={ref}
          id={id}
          type="checkbox"
          name={name}
          checked={checked}
          onChange={(event) => onChange(event.target.checked)}
          onBlur={onBlur}
          aria-invalid={error || undefined}
          aria-describedby={showError ? `${id}-error` : undefined}
        />
        <span className="dv-choice__label">{label}</span>
      </label>
      <p id={`${id}-error`} className="dv-field__error">
        {showError ? errorText : null}
      </p>
    </div>
  );
}
