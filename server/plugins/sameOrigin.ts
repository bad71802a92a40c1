// Requests that change something on the strength of a cookie must come from the product's own pages. SameSite=Strict
// keeps other sites' pages out, not the other origins of the same site (another port or subdomain of the host):
// a form there posting to the back office would carry the approver's cookie. So a write that a cookie authorises
// must say it comes from a trusted origin, when the browser says where it comes from, and carry JSON, which no form
// can send and which a script of another origin cannot send without CORS's consent.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../apiError';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The methods that carry a body a form could send. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export interface SameOriginOptions {
  /** Refuse a body that is not JSON (the back office's calls, the customers' logout); off for a plain HTML form's route. */
  json: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** An onRequest hook for the routes that a cookie authorises: see sameOrigin.ts. */
    sameOriginWrites(options: SameOriginOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

const refused = () => new ApiError(403, 'CROSS_ORIGIN_REFUSED', 'This request must come from the Divilo pages themselves');

/**
 * `trustedOrigins`: PUBLIC_URL's origin and those CORS_ORIGINS allows with credentials (the development server's).
 * A browser names the origin of every write (`Origin`), and modern ones say how it relates to the target
 * (`Sec-Fetch-Site`): either, when sent, must be ours. Programs that send neither (the tests, a command line) are
 * not browsers a page can drive, and the cookie still has to be theirs.
 */
export const sameOriginPlugin = fp(async (app: FastifyInstance, { trustedOrigins }: { trustedOrigins: string[] }) => {
  const trusted = new Set(trustedOrigins);
  app.decorate('sameOriginWrites', ({ json }: SameOriginOptions) => async (request: FastifyRequest) => {
    if (!WRITES.has(request.method)) return;
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') throw refused();
    const origin = request.headers.origin;
    // Under `Referrer-Policy: no-referrer` (the pages' own) a browser names a form's origin `null`, even on the page's
    // own origin; Sec-Fetch-Site then says whether it is (a sandboxed frame's form is not: its origin is opaque).
    const hiddenButSameOrigin = origin === 'null' && site === 'same-origin';
    if (origin !== undefined && !trusted.has(origin) && !hiddenButSameOrigin) throw refused();
    if (json && WITH_BODY.has(request.method)) {
      const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      if (type !== 'application/json') throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the request as application/json');
    }
  });
});
