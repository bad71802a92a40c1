import { useFormik, type FormikProps } from 'formik';
import { createRef, useEffect, useMemo, useState, type ChangeEvent, type RefObject } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useFieldErrors, type FieldErrorProps } from '../../forms/useFieldErrors';
import { carryQuery } from '../../routing/query';
import { OUTAGE_MESSAGE_IDS, outageOf } from '../../services/outage';
import { errorRaised } from '../../services/requestEvents';
import { toFormErrors, validateSchema, type ValidatableSchema } from '../../validation/validate';
import type { ValidationMessage } from '../../validation/messages';
import { formActions, selectForm } from '../../state/formSlice';
import type { Answers } from '../../onboarding/answers';
import { flowAnswersOf, nextStepOf, stepById, type StepId } from '../../onboarding/flow';
import { isAnswersStep, stepSchema } from '../../onboarding/stepSchemas';
import { currentStepOf, fieldErrorsOf, useSaveStepMutation } from './onboardingApi';
import { useSavedAnswers } from './savedApplication';

/** Where a step goes: the next route with the query string, except /welcome (seed: the query is not carried there). */
export function useGoToStep() {
  const navigate = useNavigate();
  const location = useLocation();
  return (next: string, state?: StepArrival) =>
    navigate(next === 'welcome' ? '/welcome' : carryQuery(next === 'signUp' ? '/signUp' : `/${next}`, location.search), { state });
}

/** Leaves `step` for the page its rule picks on the answers saved so far: a screen never names its neighbour. */
export function useGoOn(step: StepId) {
  const goTo = useGoToStep();
  const answers = useSavedAnswers();
  return (state?: StepArrival) => goTo(nextStepOf(step, flowAnswersOf(answers, answers.personType)), state);
}

/** What a step hands to the next page it opens (never a secret: navigation state is kept in history). */
export interface StepArrival {
  /** A code was just sent: the next page starts its resend countdown. */
  resendAfterSeconds?: number;
  /** Where the code went, masked. */
  sentTo?: string;
}

/** Everything a field component needs, bound to one Formik field. */
export interface StepField<V> extends FieldErrorProps {
  ref: RefObject<HTMLInputElement | null>;
  name: string;
  value: V;
  /** For plain inputs: Formik's change handler. */
  onChange: FormikProps<object>['handleChange'];
  onBlur: () => void;
  /** For pickers, boxes and radios: set the value itself. */
  set: (value: V) => void;
  /** Drops the field's error at once: for a value checked elsewhere (a document the server checked on upload). */
  clearError: () => void;
}

export interface StepFormOptions<Values extends object> {
  step: StepId;
  /** The rules of a step with no shared schema (sign-up, codes, phone, password); the step's own otherwise. */
  schema?: ValidatableSchema;
  /** The step's fields, in the order of the screen (focus goes to the first invalid one). */
  fields: (keyof Values & string)[];
  /** The values the screen starts with, from the answers saved so far. */
  initialValues: (answers: Answers) => Values;
  /** The body of the step's call; the values themselves by default. */
  toBody?: (values: Values) => Record<string, unknown>;
  /** The step's own call, for steps that are not a plain save (register, codes); the generic save otherwise. */
  send?: (values: Values) => Promise<{ next: string; arrival?: StepArrival }>;
  /** A failure the screen shows itself (a wrong code); answer true when handled. */
  onFailure?: (error: unknown) => boolean;
  /**
   * Whether what is typed is kept as a draft until saved, so a reload keeps it (true by default). Steps that
   * hold a secret (a code, a password) or a consent given at that moment say false.
   */
  keepDraft?: boolean;
}

/** Secrets a screen may hold: never kept as a draft, whatever a step says. */
const NEVER_DRAFTED: readonly string[] = ['code', 'diviloPassword', 'diviloPasswordConfirmation'];

/** The step's own fields of a draft, and no secret, whatever storage held. */
function draftOf(values: object | undefined, fields: readonly string[]): Record<string, unknown> {
  if (!values) return {};
  return Object.fromEntries(Object.entries(values).filter(([name]) => fields.includes(name) && !NEVER_DRAFTED.includes(name)));
}

/**
 * The spine of every wizard step: a Formik form validated with the step's shared schema, saved at the step's
 * endpoint (flow.ts) on Continue (the application it answers replaces the one read), then the route the flow's
 * rules pick. What is typed and not yet saved is kept as the step's draft in USER_FORM. A refusal of the server lands next to its field; any other failure shows
 * error.errorSendingData and keeps everything typed.
 */
export function useStepForm<Values extends object>({ step, schema, fields, initialValues, toBody, send, onFailure, keepDraft = true }: StepFormOptions<Values>) {
  const dispatch = useAppDispatch();
  const answers = useSavedAnswers();
  const { drafts } = useAppSelector(selectForm);
  const goTo = useGoToStep();
  const [save] = useSaveStepMutation();
  // The answers saved so far, and over them what was typed here before a reload.
  const [start] = useState(() => ({ ...initialValues(answers), ...(keepDraft ? (draftOf(drafts?.[step], fields) as Partial<Values>) : {}) }));
  const [refs] = useState(
    () => Object.fromEntries(fields.map((name) => [name, createRef<HTMLInputElement>()])) as Record<keyof Values & string, RefObject<HTMLInputElement | null>>,
  );
  const endpoint = stepById(step)?.endpoint;
  // The step's shared schema (the server checks the body with the same), on the answers saved so far.
  const rules = useMemo(() => schema ?? (isAnswersStep(step) ? stepSchema(step, { saved: answers }) : undefined), [schema, step, answers]);
  if (!rules) throw new Error(`The step ${step} has no shared schema: its screen must give its rules`);

  const formik = useFormik<Values>({
    initialValues: start,
    validate: async (values) => toFormErrors(await validateSchema(rules, values)),
    validateOnChange: false,
    onSubmit: async (values, helpers) => {
      try {
        const saved = send ? await send(values) : endpoint ? await save({ endpoint, body: toBody ? toBody(values) : ({ ...values } as Record<string, unknown>) }).unwrap() : undefined;
        if (!saved) return;
        dispatch(formActions.draftDropped(step));
        goTo(saved.next, 'arrival' in saved ? saved.arrival : undefined);
      } catch (error) {
        if (onFailure?.(error)) return;
        const refused = fieldErrorsOf(error);
        if (refused.length > 0) {
          // `owners[1].identificationDocument` belongs to the field `owners`.
          const known = refused.filter((entry) => (fields as string[]).includes(entry.field.split(/[.[]/)[0]));
          helpers.setErrors(
            toFormErrors(Object.fromEntries(known.map((entry) => [entry.field, { id: entry.id, values: entry.values } as ValidationMessage]))) as never,
          );
          if (known.length === refused.length) return;
        }
        const errorCode = (error as { errorCode?: string } | undefined)?.errorCode;
        const resumeAt = currentStepOf(error);
        // Sent back by the bank for other steps: said, then taken to the next one it asked about.
        if (errorCode === 'STEP_NOT_REOPENED') dispatch(errorRaised('error.stepNotReopened'));
        if (resumeAt) return goTo(resumeAt);
        // The identity check compared these answers already, or a service behind the API is away (or the code's message
        // was not sent): saying so beats "check your connection". Everything typed stays; Continue tries again.
        const outage = outageOf(error);
        dispatch(errorRaised(outage ? OUTAGE_MESSAGE_IDS[outage] : errorCode === 'IDENTITY_DATA_FROZEN' ? 'error.identityDataFrozen' : 'error.errorSendingData'));
      }
    },
  });
  const errors = useFieldErrors(formik, fields, refs);

  // Every change of what is typed, kept (`fields` is the screen's constant list: the first one is kept).
  const { values, dirty } = formik;
  const [drafted] = useState(() => fields);
  useEffect(() => {
    if (keepDraft && dirty) dispatch(formActions.draftKept({ step, values: draftOf(values, drafted) }));
  }, [values, dirty, keepDraft, step, drafted, dispatch]);

  function field<K extends keyof Values & string>(name: K): StepField<Values[K]> {
    // A field showing an error is checked again at every change, so the error goes as soon as the value is good
    // (and not on blur, when a disappearing line would move what the next tap aims at). One without an error is
    // left alone while typed in.
    const recheck = errors[name]?.error ?? false;
    return {
      ref: refs[name],
      name,
      value: formik.values[name],
      onChange: (recheck
        ? (event: ChangeEvent<HTMLInputElement>) => {
            const { checked, type, value } = event.target;
            void formik.setFieldValue(name, type === 'checkbox' ? checked : value, true);
          }
        : formik.handleChange) as FormikProps<object>['handleChange'],
      onBlur: () => void formik.setFieldTouched(name, true),
      set: (value) => {
        void formik.setFieldValue(name, value, recheck);
      },
      clearError: () => formik.setFieldError(name, undefined),
      ...errors[name],
    };
  }

  /** A plain text input's props: `<TextInput {...text('firstName')} />`. */
  function text(name: keyof Values & string) {
    const bound = field(name);
    return { ref: bound.ref, name, value: String(bound.value ?? ''), onChange: bound.onChange, onBlur: formik.handleBlur, error: bound.error, errorText: bound.errorText };
  }

  return { formik, field, text };
}
