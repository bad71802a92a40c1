// Clients of a test server that sign up, reach the wizard's phone step and read what was sent: for the suites
// about the message budgets. Each client is an address of its own (X-Forwarded-For, trusted by those suites).
import { randomUUID } from 'node:crypto';
import { passCaptcha, type startLoginServerOn } from './login/loginServer';

const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: '', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };

let clients = 0;
/** A client address of its own: 10.x.y.z. */
export const newClient = () => {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};

export type Server = Awaited<ReturnType<typeof startLoginServerOn>>;

export function clientOf(server: Server, client: string) {
  const post = async (path: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.api}/${path}`, {
      method: 'POST',
      headers: { 'x-forwarded-for': client, ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
  };
  const register = async (email: string, id = '00000010X') => {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    return post('onboarding-management/register', '', { email, idType: 'nif', id, privacyPolicy: true, precontractualInformation: true, sessionId });
  };
  return { post, register };
}

export const sentTo = async (server: Server, recipient: string) => server.app.db.selectFrom('outbox').select(['text', 'purpose']).where('recipient', '=', recipient).orderBy('id').execute();
export const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];
export const refusals = (server: Server) => server.app.db.selectFrom('audit_log').selectAll().where('action', '=', 'messaging.budget_exceeded').execute();

/** An application whose personal info is saved: its next step is the phone. */
export async function atThePhoneStep(server: Server, client: string, email: string, id: string): Promise<string> {
  const { post, register } = clientOf(server, client);
  const registered = await register(email, id);
  const [mail] = await sentTo(server, email);
  const confirmed = await post('onboarding-management-private/email/verify', registered.body.token as string, { code: codeIn(mail.text) });
  await post('onboarding-management-private/personal-info', confirmed.body.token as string, PERSON);
  return confirmed.body.token as string;
}
