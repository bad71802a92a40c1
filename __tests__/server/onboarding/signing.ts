// Applications brought to /docu-sign and signed through the real calls, for the contract and review suites.
import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import { lastCode, passCaptcha } from '../login/loginServer';

/** The steps a freelancer's own calls have done before the password. */
export const STEPS_BEFORE_PASSWORD = ['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as', 'your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance'];

export const PHONE = '+34611222333';

/** A freelancer's answers as the steps save them (consent dates from the register call). */
export function freelancerAnswers(idDocument: string, email: string): Record<string, unknown> {
  return {
    email,
    id: idDocument,
    idType: 'nif',
    privacyPolicyDate: '2026-02-27T09:00:00.000Z',
    precontractualinformationDate: '2026-02-27T09:00:00.000Z',
    firstName: 'José',
    firstSurname: 'Núñez',
    secondSurname: 'García',
    residenceCountry: 'ES',
    telephoneCountry: 'ES',
    telephoneNumber: PHONE,
    selfEmployedId: idDocument,
    selfEmployedFiscalAddress: 'Calle Mayor 1',
    selfEmployedFiscalPostalCode: '28013',
    selfEmployedFiscalCity: 'Madrid',
    selfEmployedFiscalCountry: 'ES',
    diviloProduct: 'account-and-cards',
  };
}

interface Server {
  app: FastifyInstance;
  api: string;
}

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  bytes: Buffer;
  type: string;
}

/** One call to a private onboarding route with the application's token. */
export async function call(server: Server, token: string, method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.api}/onboarding-management-private/${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), 'user-agent': 'ContractTest/1.0', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, bytes, type, body: type.startsWith('application/json') ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : {} };
}

/**
 * An application whose steps before /docu-sign are done: the earlier steps as their calls leave them, the
 * password through its call, and the identity check as the check records it (`check-identity`, then its waiting
 * page): approved by a reviewer (the application then holds its ID document and has its sign-in user), or
 * `'needs-review'` (the photos wait for the bank). `identityCheck: false` stops before it.
 */
export async function readyToSign(
  server: Server,
  idDocument: string,
  options: { language?: 'es' | 'en'; identityCheck?: false | 'approved' | 'needs-review'; answers?: Record<string, unknown>; email?: string } = {},
) {
  const email = options.email ?? `${idDocument.toLowerCase()}@example.com`;
  const created = await server.app.applications.create(
    { email, idDocument, answers: { ...freelancerAnswers(idDocument, email), ...options.answers }, completedSteps: STEPS_BEFORE_PASSWORD, language: options.language ?? 'es' },
    new Date(),
  );
  await server.app.applications.save(created, { personType: 'freelance' }, new Date());
  const token = await server.app.onboardingTokens.issue(created.id);
  const password = await call(server, token, 'POST', 'password', { diviloPassword: 'Clave-Divilo-2026', diviloPasswordConfirmation: 'Clave-Divilo-2026' });
  if (password.status !== 200) throw new Error(`password: ${password.status} ${JSON.stringify(password.body)}`);
  if (options.identityCheck !== false) {
    const current = (await server.app.applications.find(created.id))!;
    const startedAt = new Date().toISOString();
    const identityCheck =
      options.identityCheck === 'needs-review'
        ? { status: 'needs-review', provider: 'manual', startedAt, decidedAt: startedAt }
        : { status: 'approved', provider: 'manual', startedAt, decidedAt: startedAt, reviewer: 'marta' };
    // An approved identity takes its ID document and gets its sign-in user, as a verification does.
    if (options.identityCheck !== 'needs-review') await server.app.signInUsers.claim(current, new Date());
    const saved = await server.app.applications.save(
      current,
      { answers: { ...current.answers, identityCheck }, completedSteps: [...current.completedSteps, 'check-identity', 'check-identity-waiting'] },
      new Date(),
    );
    if (options.identityCheck !== 'needs-review') await server.app.signInUsers.ensureUser(saved!, new Date());
  }
  return { id: created.id, token };
}

/** Consents, reads the SMS the server sent and signs with its code. */
export async function consentAndSign(server: Server, token: string): Promise<Answer> {
  const consent = await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
  if (consent.status !== 200) throw new Error(`consent: ${consent.status}`);
  return call(server, token, 'POST', 'contract/sign', { code: await lastCode(server.app, PHONE) });
}

/** Signs up through /signUp and /reg-code as the browser does: register, then the code e-mailed; answers the verify call. */
export async function signUpAndConfirm(server: Server, email: string, idDocument: string): Promise<Answer> {
  const sessionId = randomUUID();
  await passCaptcha(server.api, sessionId);
  const registered = await fetch(`${server.api}/onboarding-management/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, idType: 'nif', id: idDocument, privacyPolicy: true, precontractualInformation: true, promotionalCodeFromParam: false, sessionId }),
  });
  if (registered.status !== 200) throw new Error(`register: ${registered.status}`);
  const { token } = (await registered.json()) as { token: string };
  return call(server, token, 'POST', 'email/verify', { code: await lastCode(server.app, email) });
}

/** Brings an application to its password step (the earlier steps' answers saved as their calls save them) and sets the password. */
export async function setPasswordOf(server: Server, applicationId: string): Promise<Answer> {
  const application = (await server.app.applications.find(applicationId))!;
  await server.app.applications.save(
    application,
    { answers: { ...freelancerAnswers(application.idDocument, application.email), ...application.answers }, completedSteps: STEPS_BEFORE_PASSWORD, personType: 'freelance' },
    new Date(),
  );
  const token = await server.app.onboardingTokens.issue(applicationId);
  return call(server, token, 'POST', 'password', { diviloPassword: 'Clave-Divilo-2026', diviloPasswordConfirmation: 'Clave-Divilo-2026' });
}
