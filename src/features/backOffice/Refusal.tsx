import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import type { StaffApiError } from './backOfficeApi';
import { refusalMessage } from './refusals';

/**
 * An action's refusal, said as an alert in words a member of staff can act on; with `focus`, focused when it comes
 * (a decision's, whose outcome is otherwise said by the page's status line).
 */
export function Refusal({ error, focus = false }: { error?: StaffApiError; focus?: boolean }) {
  const intl = useIntl();
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (focus && error) ref.current?.focus();
  }, [focus, error]);
  if (!error) return null;
  const { descriptor, values } = refusalMessage(error);
  return (
    <p ref={ref} className="dv-bo-problem" role="alert" tabIndex={focus ? -1 : undefined}>
      {intl.formatMessage(descriptor, values)}
    </p>
  );
}
