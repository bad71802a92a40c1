import type { FastifyInstance, FastifyRequest } from 'fastify';
import { escapeHtml, page } from '../html';
import { hashSessionId, SESSION_COOKIE } from '../user-authorization-management';

const TEXTS = {
  es: {
    title: 'Tu cuenta Divilo',
    signedIn: 'Has entrado como',
    idle: 'Por tu seguridad, la sesión se cierra tras 5 minutos sin actividad.',
    logout: 'Cerrar sesión',
  },
  en: {
    title: 'Your Divilo account',
    signedIn: 'You are signed in as',
    idle: 'For your security, the session ends after 5 minutes without activity.',
    logout: 'Log out',
  },
};

function language(request: FastifyRequest): 'es' | 'en' {
  return (request.headers['accept-language'] ?? '').toLowerCase().startsWith('es') ? 'es' : 'en';
}

/**
 * The main app of the embedded defaults: where a customer lands after login. Who is signed in, and a way
 * out; without a live session it sends the browser to the login page.
 */
export async function mainAppRoutes(app: FastifyInstance, { idleSeconds }: { idleSeconds: number }) {
  // The sign-out form posts no fields that matter; its body is accepted and ignored.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, _body, done) => done(null, {}));
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const cookie = request.cookies[SESSION_COOKIE];
    const session = cookie ? await app.loginSessions.findLive(hashSessionId(cookie), idleSeconds) : undefined;
    if (!session) return reply.redirect('/login', 303);
    await app.loginSessions.touch(session.idHash);
    const user = await app.identity.getUser(session.username);
    const lang = language(request);
    const text = TEXTS[lang];
    const name = user?.attributes.name ? `${user.attributes.name} (${session.username})` : session.username;
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return page(
      text.title,
      `<div class="card"><h1>${text.title}</h1><p>${text.signedIn} <strong data-testid="signed-in-user">${escapeHtml(name)}</strong>.</p><p>${text.idle}</p>
      <form method="post" action="/app/logout"><button type="submit">${text.logout}</button></form></div>`,
      lang,
    );
  });

  app.post('/logout', { schema: { hide: true } }, async (request, reply) => {
    const cookie = request.cookies[SESSION_COOKIE];
    if (cookie) await app.loginSessions.revoke(hashSessionId(cookie));
    reply.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
    return reply.redirect('/login', 303);
  });
}
