import { useId, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import './TextInput.css';

export interface SelectInputProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'children'> {
  label: ReactNode;
  description?: ReactNode;
  options: readonly { value: string; label: string }[];
  /** The first, empty option ("Choose…"). */
  placeholder: string;
  error?: boolean;
  errorText?: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

/** A short fixed list as the platform's own select: on a phone, its native wheel or sheet. */
export function SelectInput({ label, description, options, placeholder, error = false, errorText, ref, id, ...selectProps }: SelectInputProps) {
  const generated = useId();
  const selectId = id ?? generated;
  const showError = error && Boolean(errorText);
  const describedBy = [description ? `${selectId}-description` : null, showError ? `${selectId}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['dv-field', error && 'dv-field--error'].filter(Boolean).join(' ')}>
      <label className="dv-field__label" htmlFor={selectId}>
        {label}
      </label>
      {description && (
        <p id={`${selectId}-description`} className="dv-field__description">
          {description}
        </p>
      )}
      <div className="dv-field__control">
        <select {...selectProps} ref={ref} id={selectId} className="dv-field__input dv-field__select" aria-invalid={error || undefined} aria-describedby={describedBy}>
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      <p id={`${selectId}-error`} className="dv-field__error">
        {showError ? errorText : null}
      </p>
    </div>
  );
}
