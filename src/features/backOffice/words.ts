import { describeMessages } from '../../i18n/messages';

/** The words of the back office's values, shared by the queue and the application page. */
export const valueWords = describeMessages({
  freelance: { id: 'backOffice.path.freelance', defaultMessage: 'Self-employed' },
  company: { id: 'backOffice.path.company', defaultMessage: 'Company' },
  noPath: { id: 'backOffice.path.none', defaultMessage: 'Not chosen yet' },
  low: { id: 'backOffice.risk.low', defaultMessage: 'Low' },
  medium: { id: 'backOffice.risk.medium', defaultMessage: 'Medium' },
  high: { id: 'backOffice.risk.high', defaultMessage: 'High' },
  noRisk: { id: 'backOffice.risk.none', defaultMessage: 'Not assessed' },
  'identity-review': { id: 'backOffice.awaiting.identity-review', defaultMessage: 'Identity review' },
  decision: { id: 'backOffice.awaiting.decision', defaultMessage: 'Decision' },
  'second-approval': { id: 'backOffice.awaiting.second-approval', defaultMessage: 'Second approval' },
  nothing: { id: 'backOffice.awaiting.nothing', defaultMessage: 'Nothing' },
  hours: { id: 'backOffice.duration.hours', defaultMessage: '{hours} h' },
  days: { id: 'backOffice.duration.days', defaultMessage: '{days} d' },
  daysHours: { id: 'backOffice.duration.daysHours', defaultMessage: '{days} d {hours} h' },
  yes: { id: 'backOffice.value.yes', defaultMessage: 'Yes' },
  no: { id: 'backOffice.value.no', defaultMessage: 'No' },
});

/** A wait in whole hours, in days and hours past two days: "26 h", "48 h", "3 d 4 h", "4 d". */
export function durationParts(hours: number): { key: 'hours' | 'days' | 'daysHours'; values: { days: number; hours: number } } {
  const whole = Math.floor(hours);
  if (whole <= 48) return { key: 'hours', values: { days: 0, hours: whole } };
  const days = Math.floor(whole / 24);
  return whole % 24 === 0 ? { key: 'days', values: { days, hours: 0 } } : { key: 'daysHours', values: { days, hours: whole % 24 } };
}
