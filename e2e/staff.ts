// Members of the bank's staff in the browser tests: made through the identity service's admin calls with the
// server's own admin credentials (derived from its secret), as `npm run admin` would, and signed in through the back
// office's page, enrolling an authenticator app whose codes come from `otpauth`.
import { AdminAddUserToGroupCommand, AdminCreateUserCommand, AdminSetUserPasswordCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { embeddedIdentityCredentials } from '../server/plugins/identity';
import { E2E_SERVER_SECRET } from './secrets';
import { adminOnTerminal, type Lang } from './wizard';

const PASSWORD = 'Staff-Password-2026';

/** The sign-in page's words, and the queue's title it leads to. */
export const STAFF_SIGN_IN_TEXT = {
  en: {
    email: 'Work e-mail',
    password: 'Password',
    continue: 'Continue',
    newPasswordTitle: 'Choose your own password',
    newPassword: 'New password',
    repeatPassword: 'Repeat the new password',
    staffRule: 'The password must be 12 to 256 characters long',
    enrol: 'Set up your authenticator app',
    qr: 'QR code to add Divilo to your authenticator app',
    enrolCode: 'The 6-digit code the app shows',
    code: '6-digit code',
    queue: 'Applications waiting for the bank',
  },
  es: {
    email: 'Correo de trabajo',
    password: 'Contraseña',
    continue: 'Continuar',
    newPasswordTitle: 'Elige tu propia contraseña',
    newPassword: 'Contraseña nueva',
    repeatPassword: 'Repite la contraseña nueva',
    staffRule: 'La contraseña debe tener entre 12 y 256 caracteres',
    enrol: 'Configura tu aplicación de autenticación',
    qr: 'Código QR para añadir Divilo a tu aplicación de autenticación',
    enrolCode: 'El código de 6 cifras que muestra la aplicación',
    code: 'Código de 6 cifras',
    queue: 'Solicitudes pendientes del banco',
  },
} as const;

const TEXT = STAFF_SIGN_IN_TEXT;

let count = 0;

/** A new member of the staff pool with these roles, with a permanent password. */
async function newStaffMember(page: Page, roles: string[]): Promise<string> {
  const config = (await (await page.request.get('/staff-api/config')).json()) as { region: string; userPoolId: string; endpoint: string };
  const admin = new CognitoIdentityProviderClient({
    region: config.region,
    endpoint: config.endpoint,
    credentials: embeddedIdentityCredentials(Buffer.from(E2E_SERVER_SECRET, 'base64')),
  });
  const username = `staff${(count += 1)}-${Date.now()}@divilo.test`;
  try {
    await admin.send(new AdminCreateUserCommand({ UserPoolId: config.userPoolId, Username: username, MessageAction: 'SUPPRESS' }));
    await admin.send(new AdminSetUserPasswordCommand({ UserPoolId: config.userPoolId, Username: username, Password: PASSWORD, Permanent: true }));
    for (const role of roles) await admin.send(new AdminAddUserToGroupCommand({ UserPoolId: config.userPoolId, Username: username, GroupName: role }));
  } finally {
    admin.destroy();
  }
  return username;
}

/**
 * A code of the app enrolled with `secret` that is not `used`: the current window's, or else the next window's,
 * which the pool takes too (one step either side, as Cognito does) — no waiting for the clock.
 */
export function freshCode(secret: string, used?: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const code = totp.generate();
  return code === used ? totp.generate({ timestamp: Date.now() + totp.period * 1000 }) : code;
}

/** The username and password step of the sign-in page. */
export async function enterPassword(page: Page, lang: Lang, username: string, password = PASSWORD) {
  const t = TEXT[lang];
  await page.getByLabel(t.email).fill(username);
  await page.getByLabel(t.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: t.continue }).click();
}

/**
 * A new member made as the bank makes one, by `npm run admin -- staff add` on a terminal: their username and the
 * temporary password it showed there.
 */
export function staffAddedOnTerminal(roles: string[]): { username: string; temporary: string } {
  const username = `staff${(count += 1)}-${Date.now()}@divilo.test`;
  const output = adminOnTerminal('--reviewer', 'Marta Ruiz', 'staff', 'add', username, '--roles', roles.join(','));
  const temporary = /shown this once and kept nowhere: (\S+)/.exec(output)?.[1];
  if (!temporary) throw new Error(`staff add showed no password:\n${output}`);
  return { username, temporary };
}

/** The first sign-in's enrolment: the QR code and the key shown, the app's first code given. Answers the key. */
export async function enrolApp(page: Page, lang: Lang): Promise<{ secret: string; enrolled: string }> {
  const t = TEXT[lang];
  await expect(page.getByRole('heading', { name: t.enrol })).toBeVisible();
  await expect(page.getByRole('img', { name: t.qr })).toBeVisible();
  // The key as the page shows it for typing, in groups of four.
  const secret = (await page.locator('[data-secret]').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const enrolled = freshCode(secret);
  await page.getByLabel(t.enrolCode).fill(enrolled);
  await page.getByRole('button', { name: t.continue }).click();
  return { secret, enrolled };
}

/** The queue has rendered: its address and its own title. */
async function onQueue(page: Page, lang: Lang) {
  await expect(page).toHaveURL(/\/back-office\/queue(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: TEXT[lang].queue })).toBeVisible();
}

/** A new member with these roles, signed in through the page (enrolling their app), on the queue. */
export async function signedInStaff(page: Page, roles: string[], lang: Lang): Promise<string> {
  const username = await newStaffMember(page, roles);
  await page.goto(`/back-office?lang=${lang}`);
  await enterPassword(page, lang, username);
  await enrolApp(page, lang);
  await onQueue(page, lang);
  return username;
}
