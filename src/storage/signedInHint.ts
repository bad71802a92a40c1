// The customer session's cookie is HttpOnly: no script can tell whether the browser holds one. The server sets
// this second cookie beside it, holding no secret ("1"), and removes it when the session ends or is found
// gone, so the app asks get-session only when a session can exist (docs/login.md, "Sessions").

/** Set and cleared by the server together with the session cookie; readable by the app. */
export const SIGNED_IN_COOKIE = 'divilo_signed_in';

/** Whether this browser may hold a customer session: the hint cookie is there. */
export function maySessionExist(cookies: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookies.split(';').some((cookie) => cookie.trim().startsWith(`${SIGNED_IN_COOKIE}=`));
}
