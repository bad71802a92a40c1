// The wizard's searchable pickers: countries (names in the page's language, from i18n-iso-countries), the
// phone's country prefix (libphonenumber-js, the same metadata the validator uses) and the activities (IAE for a
// freelancer, CNAE-2025 for a company), found by code or in the applicant's own words (data/activitySearch.ts).
import countries from 'i18n-iso-countries';
import enCountries from 'i18n-iso-countries/langs/en.json';
import esCountries from 'i18n-iso-countries/langs/es.json';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/min';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { Combobox, RadioGroup, type ComboboxOption, type ComboboxProps } from '../../components';
import { activityIndex, loadSynonyms, type Catalogue, type SynonymEntry } from '../../data/activityIndexes';
import { CNAE_ACTIVITIES } from '../../data/cnae';
import { IAE_ACTIVITIES } from '../../data/iae';
import { describeMessages } from '../../i18n/messages';
import type { StepField } from './useStepForm';

countries.registerLocale(enCountries);
countries.registerLocale(esCountries);

const messages = describeMessages({
  noMatches: { id: 'onboarding.picker.noMatches', defaultMessage: 'Nothing matches what you typed' },
  search: { id: 'onboarding.picker.search', defaultMessage: 'Type to search' },
  remove: { id: 'onboarding.picker.remove', defaultMessage: 'Remove {name}' },
});

const countryNames = (locale: string) => countries.getNames(locale, { select: 'official' });

/** Options sorted by their labels as the language of `locale` sorts. */
function sortedByLabel(locale: string, options: ComboboxOption[]): ComboboxOption[] {
  const collator = new Intl.Collator(locale);
  return options.sort((a, b) => collator.compare(a.label, b.label));
}

/** Every country by its ISO code, named in `locale`. */
function countryOptions(locale: string): ComboboxOption[] {
  return sortedByLabel(locale, Object.entries(countryNames(locale)).map(([value, label]) => ({ value, label })));
}

/** The country of a phone prefix, shown as "+34 España": those of `only` (the countries the bank texts). */
function dialingOptions(locale: string, only: readonly string[]): ComboboxOption[] {
  const names = countryNames(locale);
  const dialed = getCountries().filter((code) => names[code] && only.includes(code));
  return sortedByLabel(locale, dialed.map((code) => ({ value: code, label: names[code], prefix: `+${getCountryCallingCode(code)}` })));
}

interface PickerProps {
  label: ReactNode;
  description?: ReactNode;
  field: StepField<string>;
}

function usePickerTexts() {
  const intl = useIntl();
  return { noMatches: intl.formatMessage(messages.noMatches), placeholder: intl.formatMessage(messages.search), locale: intl.locale };
}

type FieldComboboxProps = Pick<ComboboxProps, 'label' | 'description' | 'options' | 'placeholder' | 'maxResults' | 'search' | 'autoComplete'> & {
  field: StepField<string>;
};

/** A Combobox bound to a step field: the value is set directly, not through a change event. */
function FieldCombobox({ field: { ref, name, value, set, onBlur, error, errorText }, ...combobox }: FieldComboboxProps) {
  const { noMatches } = usePickerTexts();
  return <Combobox {...combobox} noMatches={noMatches} ref={ref} name={name} value={value} onChange={set} onBlur={onBlur} error={error} errorText={errorText} />;
}

export function CountrySelect({ autoComplete, ...picker }: PickerProps & { autoComplete?: string }) {
  const { placeholder, locale } = usePickerTexts();
  const options = useMemo(() => countryOptions(locale), [locale]);
  return <FieldCombobox {...picker} options={options} placeholder={placeholder} maxResults={250} autoComplete={autoComplete} />;
}

export function DialingCountrySelect({ label, field, countries: only }: PickerProps & { countries: readonly string[] }) {
  const { locale } = usePickerTexts();
  const options = useMemo(() => dialingOptions(locale, only), [locale, only]);
  return <FieldCombobox label={label} field={field} options={options} maxResults={250} />;
}

/** Several countries: a picker that adds each chosen one to a list of removable chips. */
export function CountriesSelect({
  label,
  description,
  exclude,
  field: { ref, name, value, set, onBlur, error, errorText },
}: {
  label: string;
  description?: ReactNode;
  /** Countries the question leaves out (Spain, where the question is about abroad). */
  exclude?: string;
  field: StepField<string[]>;
}) {
  const intl = useIntl();
  const { noMatches, placeholder, locale } = usePickerTexts();
  const [picking, setPicking] = useState('');
  const options = useMemo(() => countryOptions(locale).filter((option) => !value.includes(option.value) && option.value !== exclude), [locale, value, exclude]);
  const nameOf = (code: string) => countries.getName(code, locale) ?? code;
  return (
    <>
      <Combobox
        label={label}
        description={description}
        options={options}
        noMatches={noMatches}
        placeholder={placeholder}
        maxResults={250}
        ref={ref}
        name={name}
        value={picking}
        onChange={(code) => {
          if (code) set([...value, code]);
          setPicking('');
        }}
        onBlur={onBlur}
        error={error}
        errorText={errorText}
      />
      {value.length > 0 && (
        <ul className="dv-chips" aria-label={label}>
          {value.map((code) => (
            <li key={code}>
              {nameOf(code)}
              <button type="button" aria-label={intl.formatMessage(messages.remove, { name: nameOf(code) })} onClick={() => set(value.filter((other) => other !== code))}>
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const ACTIVITY_RESULTS = 60;

/**
 * The search over a catalogue, by relevance: the code as typed, the everyday words for an activity, then the
 * titles. Until the everyday words have arrived (a chunk of their own, asked for as the step opens) it searches
 * codes and titles alone.
 */
function useActivitySearch(catalogue: Catalogue, options: readonly ComboboxOption[]) {
  const [synonyms, setSynonyms] = useState<readonly SynonymEntry[] | null>(null);
  useEffect(() => {
    let shown = true;
    // Not having them only makes the search narrower: nothing to tell the applicant.
    loadSynonyms().then(
      (loaded) => shown && setSynonyms(loaded),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, []);
  const byCode = useMemo(() => new Map(options.map((option) => [option.value, option])), [options]);
  return useCallback(
    (query: string) =>
      activityIndex(catalogue, synonyms)
        .search(query, ACTIVITY_RESULTS)
        .map((code) => byCode.get(code))
        .filter((option): option is ComboboxOption => option !== undefined),
    [catalogue, synonyms, byCode],
  );
}

/** A catalogue's activities, searched by code and in the applicant's own words. */
function ActivityCombobox({ catalogue, options, ...picker }: PickerProps & { catalogue: Catalogue; options: readonly ComboboxOption[] }) {
  const { placeholder } = usePickerTexts();
  const search = useActivitySearch(catalogue, options);
  return <FieldCombobox {...picker} options={options} placeholder={placeholder} maxResults={ACTIVITY_RESULTS} search={search} />;
}

/** The IAE epígrafes, with their grupo under each (its title says what a short one like "De un tenedor" is about). */
export function ActivitySelect(picker: PickerProps) {
  const options = useMemo(
    () => IAE_ACTIVITIES.map((activity) => ({ value: activity.code, label: activity.title, prefix: activity.code, detail: activity.group })),
    [],
  );
  return <ActivityCombobox {...picker} catalogue="iae" options={options} />;
}

/** The CNAE-2025 classes, titled in the page's language (English from NACE Rev. 2.1) and searched in both. */
export function ActivityCnaeSelect(picker: PickerProps) {
  const { locale } = usePickerTexts();
  const options = useMemo(
    () => CNAE_ACTIVITIES.map((activity) => ({ value: activity.code, label: locale === 'es' ? activity.titleEs : activity.titleEn, prefix: activity.code })),
    [locale],
  );
  return <ActivityCombobox {...picker} catalogue="cnae" options={options} />;
}

/** A yes-or-no question as two radios, its answer a boolean (undefined until chosen). */
export function YesNoGroup({
  legend,
  description,
  yes,
  no,
  noFirst = false,
  name,
  field: { ref, name: fieldName, value, set, onBlur, error, errorText },
}: {
  legend: string;
  description?: string;
  yes: string;
  no: string;
  /** "No" first, where it is the common answer. */
  noFirst?: boolean;
  /** The radios' name, when the field's own could clash with another form on the page. */
  name?: string;
  field: StepField<boolean | undefined>;
}) {
  const options = [
    { value: 'yes', label: yes },
    { value: 'no', label: no },
  ];
  return (
    <RadioGroup
      legend={legend}
      description={description}
      options={noFirst ? options.reverse() : options}
      name={name ?? fieldName}
      ref={ref}
      value={value === undefined ? '' : value ? 'yes' : 'no'}
      onChange={(chosen) => set(chosen === 'yes')}
      onBlur={onBlur}
      error={error}
      errorText={errorText}
    />
  );
}
