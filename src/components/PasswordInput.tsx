import { useId, useState } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import { EyeIcon, EyeOffIcon } from './icons';
import { TextInput, type TextInputProps } from './TextInput';

const messages = defineMessages({
  show: { id: 'components.passwordInput.show', defaultMessage: 'Show password' },
});

export type PasswordInputProps = Omit<TextInputProps, 'type' | 'endAction'>;

/**
 * A password field with a show/hide toggle. Pasting stays allowed (password managers, WCAG 3.3.8), and
 * `autoComplete` defaults to current-password; pass new-password where one is created.
 */
export function PasswordInput({ id, autoComplete = 'current-password', ...props }: PasswordInputProps) {
  const intl = useIntl();
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const [visible, setVisible] = useState(false);

  return (
    <TextInput
      {...props}
      id={inputId}
      type={visible ? 'text' : 'password'}
      autoComplete={autoComplete}
      autoCapitalize="none"
      autoCorrect="off"
      spellCheck={false}
      endAction={
        // One fixed label with aria-pressed: the state is announced as pressed / not pressed.
        <button
          type="button"
          className="dv-field__action"
          aria-label={intl.formatMessage(messages.show)}
          aria-pressed={visible}
          aria-controls={inputId}
          disabled={props.disabled}
          onClick={() => setVisible((shown) => !shown)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      }
    />
  );
}
