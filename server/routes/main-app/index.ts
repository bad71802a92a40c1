import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LANGUAGE_COOKIE } from '../../../src/i18n/locale';
import { escapeHtml, page } from '../html';
import { SESSION_SCRIPT } from './sessionScript';
import { clearSessionCookies, hashSessionId, SESSION_COOKIE } from '../user-authorization-management';

const TEXTS = {
  es: {
    title: 'Tu cuenta Divilo',
    signedIn: 'Has entrado como',
    idle: 'Por tu seguridad, la sesión se cierra tras {idle} sin actividad.',
    logout: 'Cerrar sesión',
    warningTitle: '¿Sigues ahí?',
    warningBody: 'Tu sesión se cerrará por inactividad en',
    continue: 'Seguir conectado',
    stillSignedIn: 'Sigues conectado. Tu sesión se ha renovado.',
    expiredTitle: 'Tu sesión ha terminado',
    expiredBody: 'La cerramos tras {idle} sin actividad para proteger tu cuenta.',
    loginAgain: 'Volver a entrar',
  },
  en: {
    title: 'Your Divilo account',
    signedIn: 'You are signed in as',
    idle: 'For your security, the session ends after {idle} without activity.',
    logout: 'Log out',
    warningTitle: 'Are you still there?',
    warningBody: 'Your session will end because of inactivity in',
    continue: 'Stay signed in',
    stillSignedIn: 'You are still signed in. Your session has been renewed.',
    expiredTitle: 'Your session has ended',
    expiredBody: 'We closed it after {idle} without activity to protect your account.',
    loginAgain: 'Log in again',
  },
};

/** The language `?lang=` asks for, if it is one the pages speak. */
function askedLanguage(request: FastifyRequest): 'es' | 'en' | undefined {
  const asked = String((request.query as { lang?: unknown } | undefined)?.lang ?? '').toLowerCase();
  return asked === 'es' || asked === 'en' ? asked : undefined;
}

/** The page's language: `?lang=`, then the app's language cookie (the customer's choice there), then the browser's. */
function language(request: FastifyRequest): 'es' | 'en' {
  const chosen = askedLanguage(request) ?? String(request.cookies[LANGUAGE_COOKIE] ?? '').toLowerCase();
  if (chosen === 'es' || chosen === 'en') return chosen;
  return (request.headers['accept-language'] ?? '').toLowerCase().startsWith('es') ? 'es' : 'en';
}

/**
 * The main app of the embedded defaults: where a customer lands after login. Who is signed in, and a way
 * out; without a live session it sends the browser to the login page.
 */
export async function mainAppRoutes(app: FastifyInstance, { idleSeconds, warningSeconds }: { idleSeconds: number; warningSeconds: number }) {
  app.get('/session.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-cache').send(SESSION_SCRIPT),
  );

  // The sign-out form posts no fields that matter; its body is accepted and ignored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  app.get('/', { schema: { hide: true }, config: { personalData: true } }, async (request, reply) => {
    const cookie = request.cookies[SESSION_COOKIE];
    const session = cookie ? await app.loginSessions.findLive(hashSessionId(cookie), idleSeconds, app.clock()) : undefined;
    if (!session) {
      clearSessionCookies(reply);
      return reply.redirect('/login', 303);
    }
    await app.loginSessions.touch(session.idHash, app.clock());
    // The name is a courtesy: without the identity service the page still shows the ID document.
    const user = await app.identity.getUser(session.username).catch((error: unknown) => {
      request.log.warn({ err: error }, 'the signed-in customer could not be looked up');
      return undefined;
    });
    const lang = language(request);
    const idle = idleSeconds >= 60 ? `${Math.round(idleSeconds / 60)} min` : `${idleSeconds} s`;
    const text = Object.fromEntries(Object.entries(TEXTS[lang]).map(([key, value]) => [key, value.replace('{idle}', idle)])) as (typeof TEXTS)[typeof lang];
    const name = user?.attributes.name ? `${user.attributes.name} (${session.username})` : session.username;
    // A language picked here is the customer's choice, as in the app: it is kept for the login page too.
    const asked = askedLanguage(request);
    if (asked) reply.setCookie(LANGUAGE_COOKIE, asked, { path: '/', maxAge: 31536000, sameSite: 'lax', secure: request.protocol === 'https' });
    reply.type('text/html; charset=utf-8');
    return page(
      text.title,
      `<section class="dv-page" id="session-page" data-session-idle="${idleSeconds}" data-session-warning="${Math.min(warningSeconds, idleSeconds - 1)}">
      <h1 class="dv-screen-title" id="app-title" tabindex="-1">${text.title}</h1>
      <p>${text.signedIn} <strong data-testid="signed-in-user">${escapeHtml(name)}</strong>.</p>
      <p class="dv-page__muted">${text.idle}</p>
      <p class="dv-page__status" id="session-status" role="status" tabindex="-1" data-text="${escapeHtml(text.stillSignedIn)}"></p>
      <form method="post" action="/app/logout?lang=${lang}" class="dv-page__actions"><button type="submit" class="dv-button dv-button--blue">${text.logout}</button></form></section>
      <section class="dv-page" id="session-expired" role="alert" aria-labelledby="session-expired-title" hidden>
      <h1 class="dv-screen-title" id="session-expired-title">${text.expiredTitle}</h1><p>${text.expiredBody}</p>
      <p class="dv-page__actions"><a class="dv-button dv-button--blue" href="/login?lang=${lang}">${text.loginAgain}</a></p></section>
      <script src="/app/session.js" defer></script>`,
      lang,
      {
        languageHref: (code) => `/app?lang=${code}`,
        after: `<div class="dv-modal__backdrop" id="session-warning-backdrop" hidden>
      <div class="dv-modal" id="session-warning" role="alertdialog" aria-modal="true" aria-labelledby="session-warning-title" aria-describedby="session-warning-body">
      <h2 class="dv-modal__title" id="session-warning-title">${text.warningTitle}</h2>
      <p class="dv-modal__body" id="session-warning-body">${text.warningBody} <strong id="session-remaining"></strong>.</p>
      <div class="dv-modal__actions"><button type="button" class="dv-button dv-button--blue" id="session-continue">${text.continue}</button></div></div></div>`,
      },
    );
  });

  // A plain form posts here (the page works without its script): its origin is checked, its body is not JSON.
  app.post('/logout', { schema: { hide: true }, onRequest: app.sameOriginWrites({ json: false }) }, async (request, reply) => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (cookie) await app.loginSessions.revoke(hashSessionId(cookie), app.clock());
    clearSessionCookies(reply);
    // The login page, in the customer's language, says they have logged out.
    return reply.redirect(`/login?lang=${language(request)}&loggedOut=1`, 303);
  });
}
