// The answers of an application as the wizard's screens read them: what the server saved, over empty values, so
// every screen starts from a complete record. Field names are the ones the onboarding API uses (seed §3). The
// browser keeps none of this: it comes from the server's application (`getApplication`), never from USER_FORM.
// The fields of the steps and their types come from the steps' schemas (stepSchemas.ts): a new step's fields are
// answers without a word here.
import type { InferType } from 'yup';
import { STEP_SCHEMAS, type AnswersStepId } from './stepSchemas';

/**
 * A person of /royal-owners: a real owner (titular real, more than 25% directly or indirectly) or, when nobody
 * holds that much, an administrator recorded as legal representative. Shares are kept as typed ("25,5").
 */
export interface Owner {
  role: 'owner' | 'administrator' | '';
  firstName: string;
  firstSurname: string;
  secondSurname: string;
  identificationDocument: string;
  nationality: string;
  birthDate: string;
  ownership: 'direct' | 'indirect' | '';
  percentage: string;
  politicalPosition: boolean | undefined;
}

type PersonType = 'freelance' | 'company';

type Intersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void ? I : never;

/** Every field the steps' schemas take, as the schemas type them. */
type Declared = Intersection<{ [K in AnswersStepId]: InferType<ReturnType<(typeof STEP_SCHEMAS)[K]>> }[AnswersStepId]>;

/** Answers that no step's schema takes: the sign-up's, the phone's and the identity check's photos. */
interface Undeclared {
  idType: 'nif' | 'passport';
  id: string;
  email: string;
  passportExpeditionCountry: string;
  promotionalCodeFromParam: boolean;
  /** The country of the phone's prefix (ES: +34); the number itself is kept in E.164. */
  telephoneCountry: string;
  telephoneNumber: string;
  /** The identity check's photos (storage keys). */
  documentFront: string;
  documentBack: string;
  selfie: string;
}

/** Where the screens hold a narrower type than a schema states. */
interface Narrowed {
  personType: PersonType | '';
  owners: Owner[];
  /** Whether the company has offices or staff outside Spain; null until answered. */
  establishedAbroad: boolean | null;
  countriesWhereOperate: string[];
  operativeCountries: string[];
}

/** Not an answer: the confirmation of a CIF that closes the application, given at that moment. */
type Asked = 'confirmNotServed';

/** An application's answers, every field present. */
export type Answers = Omit<{ [K in keyof Declared]-?: NonNullable<Declared[K]> }, keyof Narrowed | Asked> & Undeclared & Narrowed;

/** A field's value before it is answered, by the schema's type of it. */
const emptyOf = (type: string) => (type === 'array' ? [] : type === 'boolean' ? false : '');

/** An application with nothing answered yet. */
export const EMPTY_ANSWERS: Answers = {
  ...Object.fromEntries(
    Object.values(STEP_SCHEMAS).flatMap((schema) =>
      Object.entries(schema({ saved: {} }).fields)
        .filter(([name]) => name !== 'confirmNotServed')
        .map(([name, field]) => [name, emptyOf(field.type)]),
    ),
  ),
  idType: 'nif',
  id: '',
  email: '',
  passportExpeditionCountry: '',
  promotionalCodeFromParam: false,
  telephoneCountry: 'ES',
  telephoneNumber: '',
  documentFront: '',
  documentBack: '',
  selfie: '',
  // Asked as yes or no: the public-office answer starts at the safe side, offices abroad unanswered.
  politicalPosition: true,
  establishedAbroad: null,
} as Answers;

/**
 * The application's saved answers over the empty record: only fields the record has, and no null (a field the
 * server holds no answer for keeps its empty value).
 */
export function answersOf(saved: Readonly<Record<string, unknown>>, personType: PersonType | null): Answers {
  const known = Object.entries(saved).filter(([key, value]) => Object.hasOwn(EMPTY_ANSWERS, key) && value !== null && value !== undefined);
  return { ...EMPTY_ANSWERS, ...Object.fromEntries(known), personType: personType ?? '' };
}
