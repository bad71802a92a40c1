import type { AppStartListening } from '../../app/listenerMiddleware';
import { storeLocale } from '../../i18n/locale';
import { localeChosen } from './uiSlice';

export function addUiListeners(startListening: AppStartListening): void {
  startListening({ actionCreator: localeChosen, effect: ({ payload }) => storeLocale(payload) });
}
