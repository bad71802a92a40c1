// The bank's back office in the browser: a new member of staff enrols an authenticator app and signs in, in both
// languages. The member is made in the test through the identity service's admin calls, with the server's own
// admin credentials (derived from its secret), as `npm run admin` would; the app's codes come from `otpauth`.
import { AdminAddUserToGroupCommand, AdminCreateUserCommand, AdminSetUserPasswordCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { embeddedIdentityCredentials } from '../server/plugins/identity';
import { E2E_SERVER_SECRET } from './secrets';

const PASSWORD = 'Staff-Password-2026';

const TEXT = {
  en: {
    email: 'Work e-mail',
    password: 'Password',
    continue: 'Continue',
    enrol: 'Set up your authenticator app',
    qr: 'QR code to add Divilo to your authenticator app',
    enrolCode: 'The 6-digit code the app shows',
    code: '6-digit code',
    queue: 'Applications waiting for the bank',
    signOut: 'Sign out',
    signedOut: 'You have signed out.',
  },
  es: {
    email: 'Correo de trabajo',
    password: 'Contraseña',
    continue: 'Continuar',
    enrol: 'Configura tu aplicación de autenticación',
    qr: 'Código QR para añadir Divilo a tu aplicación de autenticación',
    enrolCode: 'El código de 6 cifras que muestra la aplicación',
    code: 'Código de 6 cifras',
    queue: 'Solicitudes pendientes del banco',
    signOut: 'Cerrar sesión',
    signedOut: 'Has cerrado la sesión.',
  },
} as const;

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

/** A code of the app enrolled with `secret` that is not `used` (a code is taken once: the next window's, then). */
async function freshCode(secret: string, used?: string): Promise<string> {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  let code = totp.generate();
  while (code === used) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    code = totp.generate();
  }
  return code;
}

for (const lang of ['en', 'es'] as const) {
  test(`a new member of staff enrols the authenticator app, signs in, sees the queue, signs out and in again (${lang})`, async ({ page }) => {
    const t = TEXT[lang];
    const username = await newStaffMember(page, ['reviewer']);

    await page.goto(`/back-office?lang=${lang}`);
    await page.getByLabel(t.email).fill(username);
    await page.getByLabel(t.password, { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: t.continue }).click();

    await expect(page.getByRole('heading', { name: t.enrol })).toBeVisible();
    await expect(page.getByRole('img', { name: t.qr })).toBeVisible();
    // The key as the page shows it for typing, in groups of four.
    const secret = (await page.locator('[data-secret]').innerText()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const enrolled = await freshCode(secret);
    await page.getByLabel(t.enrolCode).fill(enrolled);
    await page.getByRole('button', { name: t.continue }).click();

    await expect(page).toHaveURL(/\/back-office\/queue$/);
    await expect(page.getByRole('heading', { level: 1, name: t.queue })).toBeVisible();
    await expect(page.getByText(username)).toBeVisible();
    // Nothing of the sign-in is left in the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain('CognitoIdentityServiceProvider');

    await page.getByRole('button', { name: t.signOut }).click();
    await expect(page).toHaveURL(/\/back-office$/);
    await expect(page.getByRole('status')).toHaveText(t.signedOut);

    await page.getByLabel(t.email).fill(username);
    await page.getByLabel(t.password, { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: t.continue }).click();
    await page.getByLabel(t.code).fill(await freshCode(secret, enrolled));
    await page.getByRole('button', { name: t.continue }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.queue })).toBeVisible();
  });
}
