import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Answers } from '../onboarding/answers';

/**
 * The onboarding form the browser keeps (USER_FORM): what was typed and is not saved yet, and who is signing up.
 * The answers saved belong to the server's application (`getApplication`): they are read from there, never kept
 * here. Nothing in it is a secret.
 */
export interface OnboardingForm extends Pick<Answers, 'idType' | 'id' | 'email' | 'passportExpeditionCountry' | 'promotionalCode' | 'promotionalCodeFromParam'> {
  /**
   * What a step's screen holds typed but not yet saved, by step, so a reload keeps it (steps with a code or a
   * password keep no draft). Dropped when the step is saved.
   */
  drafts: Partial<Record<string, Record<string, unknown>>>;
}

export const initialFormState: OnboardingForm = {
  idType: 'nif',
  id: '',
  email: '',
  passportExpeditionCountry: '',
  promotionalCode: '',
  promotionalCodeFromParam: false,
  drafts: {},
};

type SignUp = Omit<OnboardingForm, 'drafts'>;

const formSlice = createSlice({
  name: 'form',
  initialState: initialFormState,
  reducers: {
    formReset: () => initialFormState,
    /** A step's screen changed: what it holds, kept until it is saved. */
    draftKept: (state, action: PayloadAction<{ step: string; values: Record<string, unknown> }>) => {
      state.drafts = { ...state.drafts, [action.payload.step]: action.payload.values };
    },
    /** The step was saved: the application holds its answers now. */
    draftDropped: (state, action: PayloadAction<string>) => {
      if (state.drafts?.[action.payload] === undefined) return;
      const { [action.payload]: _saved, ...others } = state.drafts;
      state.drafts = others;
    },
    /** After a session ended: /signUp is filled again with who was signing up, and nothing else is kept. */
    formResetForResume: ({ drafts: _drafts, ...signUp }) => ({ ...initialFormState, ...signUp }),
    /** /signUp was sent: who is signing up, as the server keeps it, to show at /reg-code and to resume with. */
    registrationSubmitted: (state, action: PayloadAction<SignUp>) => {
      Object.assign(state, action.payload);
    },
    /** A link brought a promotional code: /signUp starts with it. */
    promotionCodeApplied: (state, action: PayloadAction<Pick<SignUp, 'promotionalCode' | 'promotionalCodeFromParam'>>) => {
      Object.assign(state, action.payload);
    },
  },
});

export const formActions = formSlice.actions;
export const formReducer = formSlice.reducer;

export const selectForm = (state: { form: OnboardingForm }) => state.form;
