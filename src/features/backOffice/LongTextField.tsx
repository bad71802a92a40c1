import { useId, type ReactNode, type Ref, type TextareaHTMLAttributes } from 'react';
import { useIntl } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import '../../components/TextInput.css';
import './backOffice.css';

const messages = describeMessages({
  count: { id: 'backOffice.longText.count', defaultMessage: '{count, number} of {max, number} characters' },
});

export interface LongTextFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'children' | 'style' | 'maxLength'> {
  label: ReactNode;
  /** A hint under the label, read with the field. */
  description?: ReactNode;
  value: string;
  /** The most characters the bank takes: shown as a count under the field, read with it. */
  max: number;
  error?: boolean;
  errorText?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

/**
 * A labelled text area for the bank's words (a template, a message to an applicant, a reason, a note), its hint,
 * count and error tied to it. No `maxLength`: a pasted text is kept whole and the count says by how much it is too long.
 */
export function LongTextField({ label, description, value, max, error = false, errorText, ref, id, ...areaProps }: LongTextFieldProps) {
  const intl = useIntl();
  const generated = useId();
  const areaId = id ?? generated;
  const showError = error && Boolean(errorText);
  const describedBy = [description ? `${areaId}-description` : null, `${areaId}-count`, showError ? `${areaId}-error` : null].filter(Boolean).join(' ');
  return (
    <div className={['dv-field', error && 'dv-field--error'].filter(Boolean).join(' ')}>
      <label className="dv-field__label" htmlFor={areaId}>
        {label}
      </label>
      {description && (
        <p id={`${areaId}-description`} className="dv-field__description">
          {description}
        </p>
      )}
      <div className="dv-field__control">
        <textarea
          rows={5}
          {...areaProps}
          ref={ref}
          id={areaId}
          value={value}
          className="dv-field__input dv-long-text"
          aria-invalid={error || undefined}
          aria-describedby={describedBy}
        />
      </div>
      <p id={`${areaId}-count`} className="dv-field__description">
        {intl.formatMessage(messages.count, { count: [...value].length, max })}
      </p>
      <p id={`${areaId}-error`} className="dv-field__error">
        {showError ? errorText : null}
      </p>
    </div>
  );
}
