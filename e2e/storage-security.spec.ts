// A customer's file is never a page of the app: uploaded as an applicant with the product's own storage
// module, a file carrying HTML and script opens as a sandboxed PDF or a download, and no script of it runs.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { expect, test } from '@playwright/test';
import { applicantCredentials, createStorageClient } from '../src/documentStorage/uploadDocument';
import { arrived, freshApplicant, signUp } from './wizard';

interface RuntimeConfig {
  identity: { region: string; endpoint: string };
  storage: { region: string; bucket: string; endpoint: string };
}

const EVIL = '<!doctype html><title>file</title><script>document.title = "ran"; fetch("/config.json"); new Image().src = "/ran-beacon";</script>';

test('an applicant\'s HTML file opens as a sandboxed PDF or a download, and its script never runs', async ({ page }) => {
  const config = (await (await page.request.get('/config.json')).json()) as RuntimeConfig;
  // An applicant's onboarding session: signed up, its e-mail code confirmed.
  await signUp(page, 'en', freshApplicant());
  await arrived(page, /\/personal-info/);
  const bearer = JSON.parse((await page.evaluate(() => localStorage.getItem('JWT')))!) as string;
  const identity = (await (await page.request.post('/api/onboarding-management-private/storage-identity', { headers: { authorization: `Bearer ${bearer}` } })).json()) as {
    identityId: string;
    token: string;
  };
  const credentials = applicantCredentials(identity, config.identity);
  const client = createStorageClient(config.storage, credentials);
  const own = `private/${identity.identityId}`;

  // The shared areas are closed to applicants: no file of theirs can be pulled in by another page.
  for (const Key of ['public/evil.js', `protected/${identity.identityId}/evil.html`]) {
    await expect(client.send(new PutObjectCommand({ Bucket: config.storage.bucket, Key, Body: EVIL, ContentType: 'text/javascript' }))).rejects.toMatchObject({ name: 'AccessDenied' });
  }
  await client.send(new PutObjectCommand({ Bucket: config.storage.bucket, Key: `${own}/fake.pdf`, Body: EVIL, ContentType: 'application/pdf' }));
  await client.send(new PutObjectCommand({ Bucket: config.storage.bucket, Key: `${own}/page.html`, Body: EVIL, ContentType: 'text/html' }));

  const signer = new SignatureV4({ credentials, region: config.storage.region, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const presign = async (key: string, query: Record<string, string> = {}) => {
    const endpoint = new URL(config.storage.endpoint);
    const path = `${endpoint.pathname}/${config.storage.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const signed = await signer.presign(
      { method: 'GET', protocol: endpoint.protocol, hostname: endpoint.hostname, port: Number(endpoint.port), path, query: { 'x-id': 'GetObject', ...query }, headers: { host: endpoint.host } },
      { expiresIn: 300 },
    );
    return `${endpoint.origin}${path}?${new URLSearchParams(signed.query as Record<string, string>)}`;
  };

  const ran: string[] = [];
  page.context().on('request', (request) => {
    if (/\/(ran-beacon|config\.json)/.test(request.url())) ran.push(request.url());
  });
  const links = [
    await presign(`${own}/fake.pdf`),
    await presign(`${own}/fake.pdf`, { 'response-content-type': 'text/html' }),
    await presign(`${own}/fake.pdf`, { 'response-content-type': 'text/html', 'response-content-disposition': 'inline' }),
    await presign(`${own}/page.html`),
  ];
  for (const link of links) {
    // A download ends the navigation with an error; a PDF opens in the viewer: either way nothing runs.
    const response = await page.goto(link).catch(() => null);
    if (response) {
      expect(response.headers()['content-security-policy']).toBe("sandbox; default-src 'none'");
      expect(await page.title()).not.toBe('ran');
    }
  }
  expect(ran).toEqual([]);
});
