import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react';
import { defineMessages, useIntl } from 'react-intl';
import './LoadingButton.css';

const messages = defineMessages({
  loading: { id: 'components.loadingButton.loading', defaultMessage: 'Loading' },
});

export type ButtonColor = 'gray' | 'blue';
const COLORS: readonly string[] = ['gray', 'blue'] satisfies ButtonColor[];
export const INVALID_COLOR_MESSAGE = "Valid values for prop color are: 'gray' and 'blue'";

/**
 * Rejects a colour outside the design's two. A wrong colour is a programming error: it throws in development
 * and in tests so it is caught before release; in production it is only reported and the button falls back
 * to blue, so one styling mistake never takes a customer's screen down.
 */
function checkButtonColor(color: unknown): ButtonColor {
  if (typeof color === 'string' && COLORS.includes(color)) return color as ButtonColor;
  if (process.env.NODE_ENV !== 'production') throw new Error(INVALID_COLOR_MESSAGE);
  console.error(INVALID_COLOR_MESSAGE);
  return 'blue';
}

export interface LoadingButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'color' | 'style'> {
  /** The button's text; `text` is accepted too, for call sites that pass it as a prop. */
  children?: ReactNode;
  text?: ReactNode;
  /** While loading the button is disabled, marked busy and shows the nine-cube logo instead of its text. */
  loading?: boolean;
  color?: ButtonColor;
  ref?: Ref<HTMLButtonElement>;
}

/** The app's button. `type` defaults to "button": a submit button says so explicitly. */
export function LoadingButton({
  children,
  text,
  loading = false,
  disabled = false,
  color = 'blue',
  type = 'button',
  className,
  ref,
  ...rest
}: LoadingButtonProps) {
  const intl = useIntl();
  const validColor = checkButtonColor(color);
  const classes = ['dv-button', `dv-button--${validColor}`, loading && 'dv-button--loading', className]
    .filter(Boolean)
    .join(' ');

  return (
    <button
      {...rest}
      ref={ref}
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      <span className="dv-button__label" aria-hidden={loading || undefined}>
        {children ?? text}
      </span>
      {loading && <CubesLogo label={intl.formatMessage(messages.loading)} />}
    </button>
  );
}

/** The animated logo: nine cubes in a 3×3 grid, pulsing in a diagonal wave (still when motion is reduced). */
function CubesLogo({ label }: { label: string }) {
  return (
    <span className="dv-cubes" role="img" aria-label={label}>
      {[1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => (
        <span key={n} className={`dv-cubes__cube dv-cubes__cube--${n}`} />
      ))}
    </span>
  );
}
