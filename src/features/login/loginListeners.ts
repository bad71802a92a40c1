import type { AppStartListening } from '../../app/listenerMiddleware';
import { getRuntimeConfig } from '../../config';
import { withCurrentQuery } from '../../routing/query';
import { canonicalIdDocument } from '../../validation';
import type { ApiError } from '../../services/baseQuery';
import { captchaApi } from '../../services/captchaApi';
import { ensureSessionId } from '../../services/sessionId';
import { loginFailed, loginFinished, loginRequested, signInSucceeded } from '../../state/authSlice';
import { toastShown } from '../../state/uiSlice';
import { signInWithPassword } from './cognito';
import { loginApi } from './loginApi';
import { loginProblemOf, type LoginStage } from './loginProblem';

/** The identity service's pre-token-generation refusal for "onboarding not finished / pending review". */
const CLIENT_VERIFICATION_CODE = 'ERR-2809';
/** The server's refusal of a session for the same reason (where the identity service let the sign-in through). */
const ONBOARDING_NOT_COMPLETE = 'ONBOARDING_NOT_COMPLETE';
/** The identity service's refusal of a customer whose application the bank rejected, and the server's. */
const APPLICATION_REJECTED_CODE = 'ERR-2810';
const APPLICATION_REJECTED = 'APPLICATION_REJECTED';

/** The toast of any login failure: the common error text and the login error text. */
export const LOGIN_ERROR_MESSAGES = ['commons.error', 'login.error'];

/**
 * The login flow once the form is valid and the captcha has answered: the server checks the captcha,
 * the identity service checks the password (SRP), the API starts the session and sends the SMS code.
 */
export function addLoginListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: loginRequested,
    effect: async ({ payload }, { dispatch, getState, extra, cancelActiveListeners }) => {
      cancelActiveListeners();
      const { identity, mainAppUrl } = getRuntimeConfig();
      // The identity service knows each person by the canonical spelling of the number only (docs/login.md).
      const userId = canonicalIdDocument(payload.userId);
      const sessionId = ensureSessionId(getState(), dispatch);
      let stage: LoginStage = 'captcha';
      try {
        const captcha = await dispatch(
          captchaApi.endpoints.verifyCaptcha.initiate({ response: payload.captchaToken, sessionId }, { forceRefetch: true }),
        ).unwrap();
        if (!captcha.success) throw { status: 403, message: 'captcha' };

        stage = 'password';
        const idToken = await signInWithPassword(userId, payload.password, identity);
        stage = 'session';
        const answer = await dispatch(loginApi.endpoints.createSession.initiate({ idToken, sessionId })).unwrap();
        if (answer.status === 201) {
          extra.navigation.leaveApp(mainAppUrl);
          return;
        }
        dispatch(
          signInSucceeded({
            phone: answer.maskedPhone,
            token: answer.token,
            status: answer.status,
            resendAvailableAt: answer.resendAfterSeconds ? Date.now() + answer.resendAfterSeconds * 1000 : null,
          }),
        );
        extra.navigation.navigate(withCurrentQuery('/login/confirm-telephone'));
      } catch (error) {
        const errorCode = (error as Partial<ApiError> | undefined)?.errorCode;
        if (messageOf(error).includes(APPLICATION_REJECTED_CODE) || errorCode === APPLICATION_REJECTED) {
          // Rejected is an answer, not a wait: its own page, which says what the rejection e-mail says.
          extra.navigation.navigate(withCurrentQuery('/application-rejected'));
        } else if (messageOf(error).includes(CLIENT_VERIFICATION_CODE) || errorCode === ONBOARDING_NOT_COMPLETE) {
          extra.navigation.navigate(withCurrentQuery('/client-verification'));
        } else {
          // The toast of the seed, and the reason left on the form.
          dispatch(toastShown({ messageIds: LOGIN_ERROR_MESSAGES, kind: 'error' }));
          dispatch(loginFailed(loginProblemOf(stage, error)));
        }
      } finally {
        dispatch(loginFinished());
      }
    },
  });
}

function messageOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error ? String((error as { message: unknown }).message) : '';
}
