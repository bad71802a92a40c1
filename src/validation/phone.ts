// The applicant's mobile (/contact-phone): a number the bank can text, in a country it serves, that costs the bank
// no premium. Shared by the phone step's screen and the server's phone route. It needs libphonenumber's `max`
// metadata (number types), four times the size of the `min` one the other screens use: only the phone step and
// the server import this module, so the login page and the rest of the wizard never download it.

import { parsePhoneNumberFromString, type CountryCode, type NumberType } from 'libphonenumber-js/max';
import { object, string, type TestConfig } from 'yup';

import { type ValidationMessageId, validationMessage } from './messages';
import { rules } from './rules';
import { isEmpty } from './text';

/** Numbers an SMS reaches. libphonenumber says FIXED_LINE_OR_MOBILE where a country's plan cannot tell (the US). */
const TEXTABLE: ReadonlySet<NumberType> = new Set<NumberType>(['MOBILE', 'FIXED_LINE_OR_MOBILE']);
/** Numbers whose calls or messages are billed above the normal rate, or to the called party: what SMS pumping farms. */
const SPECIAL_RATE: ReadonlySet<NumberType> = new Set<NumberType>(['PREMIUM_RATE', 'SHARED_COST', 'TOLL_FREE', 'UAN', 'PERSONAL_NUMBER']);

export type PhoneProblem = Extract<ValidationMessageId, 'validations.phoneNumber' | 'validations.phoneCountryNotServed' | 'validations.phoneSpecialRate' | 'validations.phoneNotMobile'>;

/**
 * What keeps `number` (national, with `country`'s prefix, or international) from being a mobile the bank texts:
 * not a valid number; a number of a country not in `smsCountries`; a premium-rate, shared-cost, free-phone,
 * universal-access or personal number; any other number that is not a mobile (fixed line, VoIP, pager,
 * voicemail). Undefined for a mobile of a served country.
 */
export function phoneProblem(number: string, country: string, smsCountries: readonly string[]): PhoneProblem | undefined {
  const parsed = parsePhoneNumberFromString(number, country as CountryCode);
  if (!parsed?.isValid()) return 'validations.phoneNumber';
  // The country of the number itself: "+53 …" typed after the Spanish prefix is a Cuban number.
  if (parsed.country === undefined || !smsCountries.includes(parsed.country)) return 'validations.phoneCountryNotServed';
  const type = parsed.getType();
  if (type !== undefined && TEXTABLE.has(type)) return undefined;
  return type !== undefined && SPECIAL_RATE.has(type) ? 'validations.phoneSpecialRate' : 'validations.phoneNotMobile';
}

/** The number in E.164 (`+34612345678`), for a number phoneProblem accepted. */
export function toE164(number: string, country: string): string {
  const parsed = parsePhoneNumberFromString(number, country as CountryCode);
  if (!parsed) throw new Error('not a phone number');
  return parsed.number;
}

/** The mobile in the sibling field `countryField`'s country: its first problem, with the message of its own. */
const mobileFor = (countryField: string, smsCountries: readonly string[]): TestConfig<unknown, object> => ({
  name: 'mobile',
  test(value, context) {
    if (isEmpty(value)) return true;
    const parent = (typeof context.parent === 'object' && context.parent !== null ? context.parent : {}) as Record<string, unknown>;
    const problem = typeof value === 'string' ? phoneProblem(value, String(parent[countryField] ?? ''), smsCountries) : 'validations.phoneNumber';
    return problem === undefined || context.createError({ message: () => validationMessage(problem, problem === 'validations.phoneNumber' ? { min: 5 } : undefined) });
  },
});

/** The prefix's country: one the bank texts (the picker offers no other). */
const servedCountry = (smsCountries: readonly string[]): TestConfig<unknown, object> => ({
  name: 'validations.phoneCountryNotServed',
  message: () => validationMessage('validations.phoneCountryNotServed'),
  test: (value) => isEmpty(value) || (typeof value === 'string' && smsCountries.includes(value)),
});

/** /contact-phone: the country of the prefix (Spain by default) and the mobile number; `smsCountries` from the configuration. */
export const contactPhoneSchema = (smsCountries: readonly string[]) =>
  object({
    telephoneCountry: string().test(rules.required()).test(servedCountry(smsCountries)),
    telephoneNumber: string().trim().test(rules.required()).test(mobileFor('telephoneCountry', smsCountries)),
  });
