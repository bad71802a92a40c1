// An applicant's answer as a reviewer reads it: yes and no for booleans, countries by name, dates in the page's
// language, a choice by the words its option had on the applicant's screen, the owners as a small table. Country
// names are the browser's own (Intl.DisplayNames): the wizard's list of names stays in the wizard's code.
import type { IntlShape } from 'react-intl';
import { useIntl } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import { valueWords } from './words';

const messages = describeMessages({
  name: { id: 'backOffice.answers.owner.name', defaultMessage: 'Name' },
  empty: { id: 'backOffice.answers.empty', defaultMessage: 'Not answered' },
});

/** The answers that hold a country's ISO code, or a list of them. */
const COUNTRY_FIELDS = /country|nationality|countries/i;

/** The owners' columns, each with the label the applicant saw in the person editor. */
const OWNER_COLUMNS: [field: string, label: string][] = [
  ['role', 'onboarding.royal-owners.role'],
  ['identificationDocument', 'onboarding.royal-owners.document'],
  ['nationality', 'onboarding.personal-info.nationality'],
  ['birthDate', 'onboarding.personal-info.birthDate'],
  ['ownership', 'onboarding.royal-owners.ownership'],
  ['percentage', 'onboarding.royal-owners.percentage'],
  ['politicalPosition', 'onboarding.royal-owners.pep'],
];

/** A date as the wizard keeps it (dd/mm/yyyy, or ISO), or undefined for anything else. */
function dateOf(value: string): Date | undefined {
  const dmy = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const [year, month, day] = dmy ? [dmy[3], dmy[2], dmy[1]] : iso ? [iso[1], iso[2], iso[3]] : [];
  if (!year) return undefined;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** One answer as text, in the page's language; `label` is its question's message id, `field` its name. */
export function answerText(intl: IntlShape, field: string, label: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return intl.formatMessage(messages.empty);
  if (typeof value === 'boolean') return intl.formatMessage(valueWords[value ? 'yes' : 'no']);
  if (Array.isArray(value)) return value.map((item) => answerText(intl, field, label, item)).join(', ');
  if (typeof value === 'number') return intl.formatNumber(value);
  if (typeof value !== 'string') return JSON.stringify(value);
  if (COUNTRY_FIELDS.test(field) && /^[A-Z]{2}$/.test(value)) return new Intl.DisplayNames([intl.locale], { type: 'region' }).of(value) ?? value;
  const date = dateOf(value);
  if (date) return intl.formatDate(date, { dateStyle: 'long', timeZone: 'UTC' });
  // A choice: its option's words, where the screen had them: beside its question (`{label}.{value}`), beside the
  // question's own words (`onboarding.register-as.freelance`), or among the origins of money.
  const options = [`${label}.${value}`, `${label.slice(0, label.lastIndexOf('.'))}.${value}`, ...(/Origin$/.test(field) ? [`onboarding.origin.${value}`] : [])];
  const option = options.find((id) => id in intl.messages);
  return option ? intl.formatMessage({ id: option }) : value;
}

/** The owners of /royal-owners as a table; any other answer as text. */
export function AnswerValue({ field, label, value }: { field: string; label: string; value: unknown }) {
  const intl = useIntl();
  if (field === 'owners' && Array.isArray(value) && value.length > 0) {
    const people = value as Record<string, unknown>[];
    return (
      <div className="dv-bo-table-scroll" role="region" aria-label={intl.formatMessage({ id: label })} tabIndex={0}>
        <table className="dv-bo-table dv-bo-table--compact">
          <thead>
            <tr>
              <th scope="col">{intl.formatMessage(messages.name)}</th>
              {OWNER_COLUMNS.map(([column, columnLabel]) => (
                <th key={column} scope="col">
                  {intl.formatMessage({ id: columnLabel })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {people.map((person, index) => (
              <tr key={index}>
                <th scope="row">{[person.firstName, person.firstSurname, person.secondSurname].filter(Boolean).join(' ')}</th>
                {OWNER_COLUMNS.map(([column, columnLabel]) => (
                  <td key={column}>{person[column] === undefined || person[column] === '' ? '—' : answerText(intl, column, columnLabel, person[column])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  return <>{answerText(intl, field, label, value)}</>;
}
