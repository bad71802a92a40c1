import { CODE_LENGTH } from '../validation/constants';
import { TextInput, type TextInputProps } from './TextInput';

/** The ID document number (DNI/NIE) customers sign in with: typed in capitals, never spell-checked. */
export function DocumentNumberInput(props: TextInputProps) {
  return <TextInput autoComplete="username" autoCapitalize="characters" spellCheck={false} {...props} />;
}

/** A 6-digit code sent by SMS or e-mail: numeric keypad, offered from the message (`one-time-code`), pastable. */
export function CodeInput(props: TextInputProps) {
  return <TextInput inputMode="numeric" autoComplete="one-time-code" maxLength={CODE_LENGTH} {...props} />;
}
