// A freelancer's way into the wizard on "AWS" (moto): the steps every emulator journey takes before what it tests.
import { randomUUID } from 'node:crypto';
import { applicantCredentials, uploadDocument } from '../../src/documentStorage/uploadDocument';
import { passCaptcha } from '../server/login/loginServer';
import { REGION } from './moto';

/** Who signs up: their ID document, e-mail, mobile (E.164) and the answers of the first steps. */
export interface Freelancer {
  id: string;
  email: string;
  phone: string;
  person: Record<string, unknown>;
  activity: Record<string, unknown>;
  address: Record<string, unknown>;
}

/** A private step's call: POST with the applicant's token, its status and JSON answer. */
export type PrivateStep = (route: string, token: string, body?: unknown) => Promise<{ status: number; retryAfter: string | null; body: Record<string, unknown> }>;

export function privateSteps(api: string): PrivateStep {
  return async (route, token, body) => {
    const response = await fetch(`${api}/onboarding-management-private/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
  };
}

/**
 * Sign-up (captcha, e-mail code) and the wizard up to the fiscal address (phone code included), each step expected
 * to succeed; `lastCode` reads the last code sent to an e-mail address or a phone number.
 */
export async function freelancerAtFiscalAddress(api: string, applicant: Freelancer, lastCode: (recipient: string) => Promise<string>) {
  const post = privateSteps(api);
  const sessionId = randomUUID();
  await passCaptcha(api, sessionId);
  const registered = await fetch(`${api}/onboarding-management/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: applicant.email, idType: 'nif', id: applicant.id, privacyPolicy: true, precontractualInformation: true, sessionId }),
  });
  expect(registered.status).toBe(200);
  const confirmed = await post('email/verify', ((await registered.json()) as { token: string }).token, { code: await lastCode(applicant.email) });
  const token = confirmed.body.token as string;
  const id = (confirmed.body.application as { id: string }).id;
  expect((await post('personal-info', token, applicant.person)).status).toBe(200);
  expect((await post('phone', token, { telephoneCountry: 'ES', telephoneNumber: applicant.phone.slice(3) })).status).toBe(200);
  expect((await post('phone/verify', token, { code: await lastCode(applicant.phone) })).body).toMatchObject({ next: 'register-as' });
  expect((await post('person-type', token, { personType: 'freelance' })).status).toBe(200);
  expect((await post('legalperson/freelance', token, applicant.activity)).status).toBe(200);
  expect((await post('legalperson/freelance/postal-address', token, applicant.address)).status).toBe(200);
  return { token, id };
}

/** The applicant's storage identity and an upload to their area with its credentials, through `endpoint`. */
export async function applicantUploads(post: PrivateStep, token: string, { bucket, endpoint }: { bucket: string; endpoint: string }) {
  const storageIdentity = (await post('storage-identity', token)).body as { identityId: string; token: string };
  const credentials = applicantCredentials(storageIdentity, { region: REGION, endpoint });
  const config = { region: REGION, bucket, endpoint };
  const upload = async (kind: string, name: string, bytes: Buffer, type: string) =>
    (await uploadDocument(new Blob([new Uint8Array(bytes)], { type }), { key: `${kind}/${name}`, level: 'private', identityId: storageIdentity.identityId, credentials, config })).key;
  return { identityId: storageIdentity.identityId, upload };
}
