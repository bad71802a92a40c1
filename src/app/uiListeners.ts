import type { AppStartListening } from './listenerMiddleware';
import { storeLocale } from '../i18n/locale';
import { localeChosen } from '../state/uiSlice';

export function addUiListeners(startListening: AppStartListening): void {
  startListening({ actionCreator: localeChosen, effect: ({ payload }) => storeLocale(payload) });
}
