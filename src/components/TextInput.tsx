import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
import { CheckIcon, ErrorIcon } from './icons';
import './TextInput.css';

export interface TextInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'children' | 'style'> {
  label: ReactNode;
  /** A hint under the label, read with the field. */
  description?: ReactNode;
  /** Marks the field invalid; `errorText` only shows while this is set. */
  error?: boolean;
  errorText?: ReactNode;
  /** Shows a tick once the value is known to be good. */
  success?: boolean;
  /** Decorative icons inside the field, hidden from screen readers. */
  leftIcon?: ReactNode;
  rightIcon?: ReactNode;
  /** An interactive control inside the field's right edge (PasswordInput's show/hide button). */
  endAction?: ReactNode;
  /** The input itself, so a form can focus its first invalid field. */
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input whose hint and error are tied to it for screen readers. */
export function TextInput({
  label,
  description,
  error = false,
  errorText,
  success = false,
  leftIcon,
  rightIcon,
  endAction,
  id,
  className,
  ref,
  'aria-describedby': describedByProp,
  ...inputProps
}: TextInputProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const descriptionId = `${inputId}-description`;
  const errorId = `${inputId}-error`;
  const showError = error && errorText !== undefined && errorText !== null && errorText !== '';
  const describedBy =
    [description ? descriptionId : null, showError ? errorId : null, describedByProp].filter(Boolean).join(' ') ||
    undefined;

  const fieldClasses = [
    'dv-field',
    error && 'dv-field--error',
    success && !error && 'dv-field--success',
    inputProps.disabled && 'dv-field--disabled',
    className,
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <div className={fieldClasses}>
      <label className="dv-field__label" htmlFor={inputId}>
        {label}
      </label>
      {description && (
        <p id={descriptionId} className="dv-field__description">
          {description}
        </p>
      )}
      <div className="dv-field__control">
        {leftIcon && (
          <span className="dv-field__icon dv-field__icon--left" aria-hidden="true">
            {leftIcon}
          </span>
        )}
        <input
          type="text"
          {...inputProps}
          ref={ref}
          id={inputId}
          className={['dv-field__input', leftIcon && 'dv-field__input--left-icon'].filter(Boolean).join(' ')}
          aria-invalid={error || undefined}
          aria-describedby={describedBy}
        />
        <span className="dv-field__end">
          {error && <ErrorIcon className="dv-field__status dv-field__status--error" />}
          {success && !error && <CheckIcon className="dv-field__status dv-field__status--success" />}
          {rightIcon && (
            <span className="dv-field__icon" aria-hidden="true">
              {rightIcon}
            </span>
          )}
          {endAction}
        </span>
      </div>
      {/* Always there, one line tall even when empty: an error appearing or going on blur does not move what is
          below, so a tap on the button under the field still lands on it. */}
      <p id={errorId} className="dv-field__error">
        {showError ? errorText : null}
      </p>
    </div>
  );
}
