import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { FALLBACK_LOCALE, type Locale } from '../i18n/locale';

interface ToastState {
  /** Message ids, shown one after the other (e.g. the common error text and the login error text). */
  messageIds: string[];
  kind: 'error' | 'info' | 'success';
}

interface UiState {
  locale: Locale;
  toast: ToastState | null;
}

export const initialUiState: UiState = { locale: FALLBACK_LOCALE, toast: null };

const uiSlice = createSlice({
  name: 'ui',
  initialState: initialUiState,
  reducers: {
    localeChosen(state, action: PayloadAction<Locale>) {
      state.locale = action.payload;
    },
    toastShown(state, action: PayloadAction<ToastState>) {
      state.toast = action.payload;
    },
    toastClosed(state) {
      state.toast = null;
    },
  },
});

export const { localeChosen, toastShown, toastClosed } = uiSlice.actions;
export const uiReducer = uiSlice.reducer;

export const selectLocale = (state: { ui: UiState }) => state.ui.locale;
export const selectToast = (state: { ui: UiState }) => state.ui.toast;
