import type { IntlShape } from 'react-intl';

type Unit = 'second' | 'minute' | 'hour' | 'day';

/**
 * A duration as a person says it, in the page's language and its two largest units ("45 s", "3 min",
 * "1 h 5 min", "2 d 4 h"), rounded to the smaller one; `null` (nobody measured) is "—".
 */
export function humanDuration(intl: IntlShape, seconds: number | null): string {
  if (seconds === null) return '—';
  const unit = (value: number, name: Unit) => intl.formatNumber(value, { style: 'unit', unit: name, unitDisplay: 'short' });
  const pair = (value: number, size: number, large: Unit, small: Unit) => {
    const whole = Math.floor(value / size);
    const rest = value % size;
    return rest === 0 ? unit(whole, large) : `${unit(whole, large)} ${unit(rest, small)}`;
  };
  if (seconds < 60) return unit(Math.round(seconds), 'second');
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return unit(minutes, 'minute');
  if (minutes < 24 * 60) return pair(minutes, 60, 'hour', 'minute');
  return pair(Math.round(seconds / 3600), 24, 'day', 'hour');
}
