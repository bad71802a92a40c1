import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, toRuntimeConfig } from '../../server/config';

const SAMPLE_TEMPLATES = path.resolve(__dirname, '../../server/data/contract-sample');

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(env)}`);
}

const PRODUCTION = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://alta.divilo.es',
  SERVER_SECRET: Buffer.alloc(32, 7).toString('base64'),
  SMS_PROVIDER_URL: 'https://sms.example/send',
  SMS_PROVIDER_API_KEY: 'key',
  SMTP_URL: 'smtps://mail.example',
  MAIL_FROM: 'no-reply@divilo.es',
  // Any file that exists: the seal certificate is read when the first contract is sealed.
  SEAL_P12_FILE: __filename,
  SEAL_P12_PASSPHRASE: 'seal passphrase',
  IDENTITY_PROVIDER: 'manual',
  CONTRACT_TEMPLATES_DIR: SAMPLE_TEMPLATES,
};

/** A user pool, its app client, its identity pool and a bucket on AWS: the whole of it. */
const ON_AWS = {
  COGNITO_USER_POOL_ID: 'eu-west-1_AbC123',
  COGNITO_CLIENT_ID: '4hj2k5l6m7n8p9q0r1s2t3u4v5',
  COGNITO_IDENTITY_POOL_ID: 'eu-west-1:0d6b3c2a-1e4f-4a5b-9c8d-7e6f5a4b3c2d',
  S3_BUCKET: 'divilo-prod-docs',
};

describe('configuration', () => {
  it('serves the API reader by default except in production, where API_DOCS=true turns it on', () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig(PRODUCTION).apiDocs).toBe(false);
    expect(loadConfig({ ...PRODUCTION, API_DOCS: 'true' }).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: 'false' }).apiDocs).toBe(false);
  });

  it('runs on the embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      production: false,
      dataDir: './data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:8080',
      corsOrigins: ['http://localhost:8080'],
      mainAppUrl: 'http://localhost:8080/app',
      logLevel: 'info',
      trustProxy: false,
      rateLimit: { max: 300, windowMs: 60_000, sensitiveMax: 20 },
      legalBaseUrl: 'http://localhost:8080/legal',
      sessionIdleSeconds: 300,
      onboardingTokenSeconds: 1800,
      onboardingSessionMaxSeconds: 86_400,
      sessionWarningSeconds: 60,
      identity: { userPoolId: 'local_Divilo1', endpoint: 'http://localhost:8080/cognito', region: 'eu-west-1', embedded: true },
      storage: { endpoint: 'http://localhost:8080/s3', bucket: 'divilo-documents', embedded: true },
      captcha: { provider: 'altcha' },
    });
  });

  it('derives the public addresses from PORT and PUBLIC_URL', () => {
    expect(loadConfig({ PORT: '9090' })).toMatchObject({ publicUrl: 'http://localhost:9090', corsOrigins: ['http://localhost:9090'] });
    const config = loadConfig({ PUBLIC_URL: 'https://alta.divilo.es/', CORS_ORIGINS: 'https://alta.divilo.es, https://www.divilo.es/path' });
    expect(config).toMatchObject({
      publicUrl: 'https://alta.divilo.es',
      mainAppUrl: 'https://alta.divilo.es/app',
      corsOrigins: ['https://alta.divilo.es', 'https://www.divilo.es'],
      identity: { endpoint: 'https://alta.divilo.es/cognito' },
    });
  });

  it('listens on every interface only in production, and uses AWS itself when a pool and a bucket are named', () => {
    const config = loadConfig({ ...PRODUCTION, ...ON_AWS });
    expect(config).toMatchObject({ production: true, host: '0.0.0.0', identity: { embedded: false }, storage: { embedded: false } });
    expect(config.identity.endpoint).toBeUndefined();
    expect(config.identity.identityPoolEndpoint).toBeUndefined();
    expect(config.identity.jwksUrl).toBeUndefined();
    expect(config.storage.endpoint).toBeUndefined();
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: ' ' })).toMatchObject({ databaseUrl: undefined, port: 8080 });
  });

  it('counts rate limits in memory unless REDIS_URL names the Redis the server processes share', () => {
    expect(loadConfig({}).redis).toBeUndefined();
    expect(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379/2' }).redis).toEqual({ url: 'redis://127.0.0.1:6379/2', keyPrefix: 'divilo:' });
    expect(loadConfig({ REDIS_URL: 'rediss://:pw@cache.internal:6380', REDIS_KEY_PREFIX: 'divilo-pre:' }).redis).toEqual({
      url: 'rediss://:pw@cache.internal:6380',
      keyPrefix: 'divilo-pre:',
    });
  });

  it('reads a proxy count for TRUST_PROXY', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
  });

  describe("the staff's pool (the back office)", () => {
    const STAFF_ON_AWS = { ...ON_AWS, STAFF_USER_POOL_ID: 'eu-west-1_Staff9', STAFF_CLIENT_ID: '7ab8cd9ef0gh1ij2kl3mn4op5q' };

    it("sits beside the customers' on the embedded service, with 15 minutes idle and 10 hours in all", () => {
      expect(loadConfig({}).staff).toEqual({
        userPoolId: 'local_DiviloStaff1',
        clientId: 'divilostaff',
        jwksUrl: 'http://localhost:8080/cognito/local_DiviloStaff1/.well-known/jwks.json',
        sessionIdleSeconds: 900,
        sessionMaxSeconds: 36_000,
        reviewTargetHours: 48,
      });
      expect(loadConfig({ STAFF_SESSION_IDLE_SECONDS: '120', STAFF_SESSION_MAX_SECONDS: '3600' }).staff).toMatchObject({ sessionIdleSeconds: 120, sessionMaxSeconds: 3600 });
    });

    it('is none on AWS unless named: no back office', () => {
      expect(loadConfig({ ...PRODUCTION, ...ON_AWS }).staff).toBeUndefined();
      expect(loadConfig(STAFF_ON_AWS).staff).toMatchObject({ userPoolId: 'eu-west-1_Staff9', clientId: '7ab8cd9ef0gh1ij2kl3mn4op5q', jwksUrl: undefined });
      // Where the customers' pool answers, the staff's does too.
      expect(loadConfig({ ...STAFF_ON_AWS, COGNITO_ENDPOINT: 'http://127.0.0.1:5000' }).staff?.jwksUrl).toBe('http://127.0.0.1:5000/eu-west-1_Staff9/.well-known/jwks.json');
    });

    it.each([
      ['STAFF_CLIENT_ID must be set when STAFF_USER_POOL_ID is', { ...ON_AWS, STAFF_USER_POOL_ID: 'eu-west-1_Staff9' }],
      ['STAFF_USER_POOL_ID must be set when STAFF_CLIENT_ID is', { ...ON_AWS, STAFF_CLIENT_ID: '7ab8cd9ef0gh1ij2kl3mn4op5q' }],
      ["STAFF_USER_POOL_ID must not be the customers' pool (COGNITO_USER_POOL_ID)", { ...STAFF_ON_AWS, STAFF_USER_POOL_ID: ON_AWS.COGNITO_USER_POOL_ID }],
      ["STAFF_USER_POOL_ID must not be the customers' pool (COGNITO_USER_POOL_ID)", { STAFF_USER_POOL_ID: 'local_Divilo1' }],
      ["STAFF_CLIENT_ID must not be the customers' client (COGNITO_CLIENT_ID)", { ...STAFF_ON_AWS, STAFF_CLIENT_ID: ON_AWS.COGNITO_CLIENT_ID }],
      ['STAFF_USER_POOL_ID must be a pool of AWS_REGION eu-west-1 (got "eu-south-2_Staff9")', { ...STAFF_ON_AWS, STAFF_USER_POOL_ID: 'eu-south-2_Staff9' }],
      ['STAFF_USER_POOL_ID must be a user pool id', { STAFF_USER_POOL_ID: 'staff' }],
      ['STAFF_SESSION_IDLE_SECONDS must be a whole number from 60 to 900 (got "901")', { STAFF_SESSION_IDLE_SECONDS: '901' }],
      ['STAFF_SESSION_MAX_SECONDS must be a whole number from 900 to 43200', { STAFF_SESSION_MAX_SECONDS: '86400' }],
    ])('refuses with "%s"', (message, env) => {
      expect(errorOf(env)).toContain(message);
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ PORT: '80.5' }, 'PORT'],
    [{ HOST: 'http://0.0.0.0:80' }, 'HOST'],
    [{ NODE_ENV: 'prod' }, 'NODE_ENV'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ PUBLIC_URL: 'ftp://files.divilo.es' }, 'PUBLIC_URL'],
    [{ MAIN_APP_URL: '/app' }, 'MAIN_APP_URL'],
    [{ LEGAL_BASE_URL: 'javascript:alert(1)' }, 'LEGAL_BASE_URL'],
    [{ CORS_ORIGINS: 'https://ok.es,nope' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'file:///etc' }, 'CORS_ORIGINS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ RATE_LIMIT_MAX: '0' }, 'RATE_LIMIT_MAX'],
    [{ RATE_LIMIT_WINDOW_SECONDS: '-1' }, 'RATE_LIMIT_WINDOW_SECONDS'],
    [{ RATE_LIMIT_SENSITIVE_MAX: 'many' }, 'RATE_LIMIT_SENSITIVE_MAX'],
    [{ REDIS_URL: 'http://127.0.0.1:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: 'divilo prod' }, 'REDIS_KEY_PREFIX'],
    [{ SUPPORT_PHONE: 'call us' }, 'SUPPORT_PHONE'],
    [{ SESSION_IDLE_SECONDS: '301' }, 'SESSION_IDLE_SECONDS'],
    [{ ONBOARDING_TOKEN_SECONDS: '10' }, 'ONBOARDING_TOKEN_SECONDS'],
    [{ SESSION_WARNING_SECONDS: '0' }, 'SESSION_WARNING_SECONDS'],
    [{ SESSION_WARNING_SECONDS: '300', ONBOARDING_TOKEN_SECONDS: '120' }, 'SESSION_WARNING_SECONDS'],
    [{ AWS_REGION: 'Europe' }, 'AWS_REGION'],
    [{ COGNITO_USER_POOL_ID: 'pool' }, 'COGNITO_USER_POOL_ID'],
    [{ COGNITO_ENDPOINT: 'cognito.local' }, 'COGNITO_ENDPOINT'],
    [{ S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET'],
    [{ AWS_REGION: 'eu-west' }, 'AWS_REGION'],
    [{ AWS_REGION: 'mars-north-1' }, 'AWS_REGION'],
    // Half on AWS, half embedded: it would start, and then browsers would upload to nowhere or with the wrong credentials.
    [{ ...ON_AWS, S3_BUCKET: '' }, 'S3_BUCKET'],
    [{ S3_BUCKET: 'divilo-prod-docs' }, 'COGNITO_USER_POOL_ID'],
    [{ ...ON_AWS, COGNITO_CLIENT_ID: '' }, 'COGNITO_CLIENT_ID'],
    [{ ...ON_AWS, COGNITO_IDENTITY_POOL_ID: '' }, 'COGNITO_IDENTITY_POOL_ID'],
    [{ ...ON_AWS, AWS_REGION: 'eu-south-2' }, 'COGNITO_USER_POOL_ID'],
    [{ ...ON_AWS, COGNITO_IDENTITY_POOL_ID: 'eu-south-2:0d6b3c2a-1e4f-4a5b-9c8d-7e6f5a4b3c2d' }, 'COGNITO_IDENTITY_POOL_ID'],
    [{ ...ON_AWS, COGNITO_JWKS_URL: 'keys.example' }, 'COGNITO_JWKS_URL'],
    [{ ...ON_AWS, AWS_ENDPOINT_URL: 'localhost:5000' }, 'AWS_ENDPOINT_URL'],
    [{ SERVER_SECRET: 'c2hvcnQ=' }, 'SERVER_SECRET'],
    [{ CAPTCHA_PROVIDER: 'hcaptcha' }, 'CAPTCHA_PROVIDER'],
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, 'RECAPTCHA_SITE_KEY'],
    [{ RECAPTCHA_MIN_SCORE: '2' }, 'RECAPTCHA_MIN_SCORE'],
    [{ ALTCHA_COST: '0' }, 'ALTCHA_COST'],
    [{ ALTCHA_COST: 'cheap' }, 'ALTCHA_COST'],
    [{ CODE_MAX_ATTEMPTS: '6' }, 'CODE_MAX_ATTEMPTS'],
    [{ SMS_PROVIDER_URL: 'https://sms.example' }, 'SMS_PROVIDER_API_KEY'],
    // Production texts people: a provider, never the outbox; and every SMS setting belongs to the provider in use.
    [{ ...PRODUCTION, SMS_PROVIDER_URL: '', SMS_PROVIDER_API_KEY: '' }, 'SMS_PROVIDER'],
    [{ ...PRODUCTION, SMS_PROVIDER: 'outbox', SMS_PROVIDER_URL: '', SMS_PROVIDER_API_KEY: '' }, 'SMS_PROVIDER'],
    [{ ...PRODUCTION, SMS_PROVIDER_URL: 'http://sms.example/send' }, 'SMS_PROVIDER_URL'],
    [{ ...PRODUCTION, SMTP_URL: '', MAIL_FROM: '' }, 'SMTP_URL'],
    [{ SMS_PROVIDER: 'twilio' }, 'SMS_PROVIDER'],
    [{ SMS_PROVIDER: 'http' }, 'SMS_PROVIDER_URL'],
    [{ SMS_PROVIDER: 'sns', SMS_PROVIDER_URL: 'https://sms.example' }, 'SMS_PROVIDER_URL'],
    [{ SMS_PROVIDER: 'sns', SMS_PROVIDER_API_KEY: 'key' }, 'SMS_PROVIDER_API_KEY'],
    [{ SMS_ORIGINATION_NUMBER: '+34600000000' }, 'SMS_ORIGINATION_NUMBER'],
    [{ SMS_PROVIDER_URL: 'https://sms.example', SMS_PROVIDER_API_KEY: 'key', SMS_MAX_PRICE_USD: '0.2' }, 'SMS_MAX_PRICE_USD'],
    [{ SMS_PROVIDER: 'sns', SMS_SENDER: 'Divilo Bank' }, 'SMS_SENDER'],
    [{ SMS_PROVIDER: 'sns', SMS_SENDER: '900100200' }, 'SMS_SENDER'],
    [{ SMS_PROVIDER: 'sns', SMS_SENDER: 'DB' }, 'SMS_SENDER'],
    [{ SMS_PROVIDER: 'sns', SMS_ORIGINATION_NUMBER: '600000000' }, 'SMS_ORIGINATION_NUMBER'],
    [{ SMS_PROVIDER: 'sns', SMS_MAX_PRICE_USD: '0' }, 'SMS_MAX_PRICE_USD'],
    [{ SMS_PROVIDER: 'sns', SMS_MAX_PRICE_USD: '150' }, 'SMS_MAX_PRICE_USD'],
    [{ SMS_PROVIDER: 'sns', SMS_MAX_PRICE_USD: 'cheap' }, 'SMS_MAX_PRICE_USD'],
    [{ ...PRODUCTION, PUBLIC_URL: 'http://alta.divilo.es' }, 'PUBLIC_URL'],
    [{ ...PRODUCTION, SERVER_SECRET: '' }, 'SERVER_SECRET'],
    [{ IDENTITY_PROVIDER: 'onfido' }, 'IDENTITY_PROVIDER'],
    [{ IDENTITY_PROVIDER: 'webhook' }, 'IDENTITY_WEBHOOK_SECRET'],
    [{ IDENTITY_WEBHOOK_SECRET: 'short-secret' }, 'IDENTITY_WEBHOOK_SECRET'],
    [{ ...PRODUCTION, SEAL_P12_FILE: '' }, 'SEAL_P12_FILE'],
    [{ SEAL_P12_FILE: '/nowhere/seal.p12' }, 'SEAL_P12_FILE'],
    [{ SEAL_P12_FILE: __filename }, 'SEAL_P12_PASSPHRASE'],
    [{ ...PRODUCTION, CONTRACT_TEMPLATES_DIR: '' }, 'CONTRACT_TEMPLATES_DIR'],
    [{ CONTRACT_TEMPLATES_DIR: '/nowhere' }, 'CONTRACT_TEMPLATES_DIR:'],
  ])('%j is refused with one line naming %s', (env, name) => {
    const message = errorOf(env);
    expect(message.startsWith(`${name} `)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('sends SMS through SNS in the region and at the endpoint of the AWS settings, with its sender ID and optional number and price', () => {
    const production = { ...PRODUCTION, SMS_PROVIDER_URL: '', SMS_PROVIDER_API_KEY: '' };
    expect(loadConfig({ ...production, SMS_PROVIDER: 'sns' }).messaging.sms).toEqual({
      provider: 'sns',
      region: 'eu-west-1',
      endpoint: undefined,
      senderId: 'Divilo',
      originationNumber: undefined,
      maxPriceUsd: undefined,
    });
    const env = { ...production, SMS_PROVIDER: 'sns', AWS_REGION: 'eu-south-2', SMS_SENDER: 'BancoX1', SMS_ORIGINATION_NUMBER: '+34600000000', SMS_MAX_PRICE_USD: '0.15' };
    expect(loadConfig({ ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:5000', AWS_ENDPOINT_URL_SNS: 'http://127.0.0.1:5001' }).messaging.sms).toEqual({
      provider: 'sns',
      region: 'eu-south-2',
      endpoint: 'http://127.0.0.1:5001',
      senderId: 'BancoX1',
      originationNumber: '+34600000000',
      maxPriceUsd: '0.15',
    });
    expect(loadConfig({ ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:5000' }).messaging.sms).toMatchObject({ endpoint: 'http://127.0.0.1:5000' });
    expect(loadConfig({ ...env, AWS_ENDPOINT_URL: 'http://127.0.0.1:5000', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' }).messaging.sms).toMatchObject({ endpoint: undefined });
  });

  it('takes the generic HTTP sender when SMS_PROVIDER_URL is set, and the outbox when nothing is', () => {
    expect(loadConfig(PRODUCTION).messaging.sms).toEqual({ provider: 'http', url: 'https://sms.example/send', apiKey: 'key', sender: 'Divilo' });
    expect(loadConfig({ SMS_PROVIDER: 'http', SMS_PROVIDER_URL: 'http://127.0.0.1:9/sms', SMS_PROVIDER_API_KEY: 'k', SMS_SENDER: 'Banco X' }).messaging.sms).toMatchObject({ sender: 'Banco X' });
    expect(loadConfig({}).messaging.sms).toBeUndefined();
    expect(loadConfig({ SMS_PROVIDER: 'outbox' }).messaging.sms).toBeUndefined();
  });

  it('takes the regions of every AWS partition, China and GovCloud included', () => {
    for (const region of ['eu-west-1', 'eu-south-2', 'cn-north-1', 'cn-northwest-1', 'us-gov-west-1', 'ap-southeast-5']) {
      expect(loadConfig({ AWS_REGION: region }).identity.region).toBe(region);
    }
  });

  it('sends both Cognito services to COGNITO_ENDPOINT unless the identity pool has its own, and reads the keys there', () => {
    const one = loadConfig({ ...ON_AWS, COGNITO_ENDPOINT: 'http://127.0.0.1:5000' }).identity;
    expect(one).toMatchObject({
      endpoint: 'http://127.0.0.1:5000',
      identityPoolEndpoint: 'http://127.0.0.1:5000',
      jwksUrl: 'http://127.0.0.1:5000/eu-west-1_AbC123/.well-known/jwks.json',
    });
    const two = loadConfig({ ...ON_AWS, COGNITO_ENDPOINT: 'https://idp.internal', COGNITO_IDENTITY_ENDPOINT: 'https://identity.internal/' }).identity;
    expect(two).toMatchObject({ endpoint: 'https://idp.internal', identityPoolEndpoint: 'https://identity.internal' });
    expect(loadConfig({ ...ON_AWS, COGNITO_JWKS_URL: 'https://keys.internal/jwks.json' }).identity.jwksUrl).toBe('https://keys.internal/jwks.json');
  });

  it("follows the AWS SDK's AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_<SERVICE>, so the browser, the CSP and the key fetch go where the SDK goes", () => {
    const all = loadConfig({ ...ON_AWS, AWS_ENDPOINT_URL: 'http://127.0.0.1:5000' });
    expect(all.identity).toMatchObject({ endpoint: 'http://127.0.0.1:5000', identityPoolEndpoint: 'http://127.0.0.1:5000', jwksUrl: 'http://127.0.0.1:5000/eu-west-1_AbC123/.well-known/jwks.json' });
    expect(all.storage.endpoint).toBe('http://127.0.0.1:5000');
    expect(toRuntimeConfig(all).storage.endpoint).toBe('http://127.0.0.1:5000');
    expect(toRuntimeConfig(all).identity).toMatchObject({ endpoint: 'http://127.0.0.1:5000', identityPoolEndpoint: 'http://127.0.0.1:5000' });

    const each = loadConfig({
      ...ON_AWS,
      AWS_ENDPOINT_URL: 'http://127.0.0.1:5000',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:5001',
      AWS_ENDPOINT_URL_COGNITO_IDENTITY: 'http://127.0.0.1:5002',
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: 'http://127.0.0.1:5003',
    });
    expect([each.identity.endpoint, each.identity.identityPoolEndpoint, each.storage.endpoint]).toEqual(['http://127.0.0.1:5003', 'http://127.0.0.1:5002', 'http://127.0.0.1:5001']);
    // The product's own variables come first; AWS_IGNORE_CONFIGURED_ENDPOINT_URLS turns the SDK's off, as in the SDK.
    expect(loadConfig({ ...ON_AWS, AWS_ENDPOINT_URL: 'http://127.0.0.1:5000', S3_ENDPOINT: 'http://127.0.0.1:6000' }).storage.endpoint).toBe('http://127.0.0.1:6000');
    const ignored = loadConfig({ ...ON_AWS, AWS_ENDPOINT_URL: 'http://127.0.0.1:5000', AWS_IGNORE_CONFIGURED_ENDPOINT_URLS: 'true' });
    expect([ignored.identity.endpoint, ignored.storage.endpoint]).toEqual([undefined, undefined]);
  });

  it('leaves the embedded services where they are whatever AWS_ENDPOINT_URL says', () => {
    const config = loadConfig({ AWS_ENDPOINT_URL: 'http://127.0.0.1:5000' });
    expect(config.identity.endpoint).toBe('http://localhost:8080/cognito');
    expect(config.storage.endpoint).toBe('http://localhost:8080/s3');
  });

  describe("the bank's contract templates", () => {
    const sample = (language: 'es' | 'en') => JSON.parse(readFileSync(path.join(SAMPLE_TEMPLATES, `${language}.json`), 'utf8')) as Record<string, unknown>;
    /** A folder with the sample's templates, the Spanish one changed by `change`. */
    const folder = (change: (template: Record<string, unknown>) => unknown = (template) => template) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'divilo-templates-'));
      const changed = change(sample('es'));
      writeFileSync(path.join(dir, 'es.json'), typeof changed === 'string' ? changed : JSON.stringify(changed));
      writeFileSync(path.join(dir, 'en.json'), JSON.stringify(sample('en')));
      return dir;
    };

    it('uses the sample without a folder, and the bank\'s templates with one', () => {
      expect(loadConfig({}).contractTemplates.es).toMatchObject({ language: 'es', version: 'sample-2026-11', title: 'Contrato de cuenta de negocio Divilo' });
      const dir = folder((template) => ({ ...template, version: '2026-03.1', notice: undefined, title: 'Contrato de cuenta Divilo Empresas' }));
      expect(loadConfig({ CONTRACT_TEMPLATES_DIR: dir }).contractTemplates.es).toMatchObject({ version: '2026-03.1', title: 'Contrato de cuenta Divilo Empresas' });
      expect(loadConfig({ CONTRACT_TEMPLATES_DIR: dir }).contractTemplates.es.notice).toBeUndefined();
    });

    it('refuses the sample in production: it is not legally binding', () => {
      expect(errorOf({ ...PRODUCTION, CONTRACT_TEMPLATES_DIR: '' })).toBe('CONTRACT_TEMPLATES_DIR must be set in production: the sample contract is not legally binding');
      expect(loadConfig(PRODUCTION).contractTemplates.en.language).toBe('en');
    });

    it.each([
      ['a missing language', () => ({ dir: (() => { const dir = folder(); rmSync(path.join(dir, 'en.json')); return dir; })(), says: /en\.json cannot be read: the folder needs one template per language \(es\.json, en\.json\)/ })],
      ['text that is not JSON', () => ({ dir: folder(() => '{ "version": '), says: /es\.json is not valid JSON/ })],
      ['a value no clause may name', () => ({ dir: folder((t) => ({ ...t, sections: [{ heading: 'Cláusulas', paragraphs: ['El titular, {firstName}, acepta.'] }] })), says: /es\.json: sections\[0\]\.paragraphs\[0\] names \{firstName\}: it may name \{privacyPolicyDate\}, \{precontractualInformationDate\}/ })],
      ['a line break inside a text', () => ({ dir: folder((t) => ({ ...t, provider: 'De una parte,\n7. Divilo' })), says: /es\.json: provider holds a line break/ })],
      ['a bidi override', () => ({ dir: folder((t) => ({ ...t, title: 'Contrato \u202eDivilo' })), says: /es\.json: title holds a line break, a tab or a hidden character/ })],
      ['a character the fonts cannot print', () => ({ dir: folder((t) => ({ ...t, title: 'Contrato 😀' })), says: /es\.json: title holds characters the contract's fonts cannot print: 😀/ })],
      ['no version', () => ({ dir: folder((t) => ({ ...t, version: 'v 1/2' })), says: /es\.json: version must be/ })],
      ['a field it does not know', () => ({ dir: folder((t) => ({ ...t, clauses: [] })), says: /es\.json: "clauses" is not a field of a contract template/ })],
      ['no clauses', () => ({ dir: folder((t) => ({ ...t, sections: [] })), says: /es\.json: sections must be a list/ })],
      ['a missing text', () => ({ dir: folder((t) => ({ ...t, signatureNote: '' })), says: /es\.json: signatureNote must be a text/ })],
    ])('refuses %s with one line naming the file and the place', (_case, make) => {
      const { dir, says } = make();
      const message = errorOf({ CONTRACT_TEMPLATES_DIR: dir });
      expect(message.startsWith('CONTRACT_TEMPLATES_DIR: ')).toBe(true);
      expect(message).toMatch(says);
      expect(message).not.toContain('\n');
    });
  });

  it('keeps the message on one line whatever the value holds', () => {
    expect(errorOf({ PORT: '80\n81' })).not.toContain('\n');
  });

  it('never repeats a database or mail URL in its message: they carry passwords', () => {
    expect(errorOf({ DATABASE_URL: 'mysql://admin:hunter2@db/x' })).not.toContain('hunter2');
    expect(errorOf({ SMTP_URL: 'http://user:hunter2@mail' })).not.toContain('hunter2');
    expect(errorOf({ REDIS_URL: 'http://:hunter2@cache' })).not.toContain('hunter2');
  });

  it('has the bank review the identity photos unless a provider is named, and never repeats the webhook secret', () => {
    expect(loadConfig({}).identityCheck).toEqual({ provider: 'manual', webhookSecret: undefined, faceDetection: true });
    expect(loadConfig({ IDENTITY_FACE_DETECTION: 'false' }).identityCheck.faceDetection).toBe(false);
    const secret = 'w'.repeat(40);
    expect(loadConfig({ IDENTITY_PROVIDER: 'webhook', IDENTITY_WEBHOOK_SECRET: secret }).identityCheck).toEqual({ provider: 'webhook', webhookSecret: secret, faceDetection: true });
    expect(errorOf({ IDENTITY_PROVIDER: 'builtin' })).toMatch(/^IDENTITY_PROVIDER must be one of manual, webhook/);
    expect(errorOf({ IDENTITY_WEBHOOK_SECRET: 'short-secret' })).not.toContain('short-secret');
    expect(JSON.stringify(toRuntimeConfig(loadConfig({ IDENTITY_WEBHOOK_SECRET: secret })))).not.toContain(secret);
  });

  it('refuses to start in production unless the identity check is named: nothing approves identities by default', () => {
    const { IDENTITY_PROVIDER: _named, ...unnamed } = PRODUCTION;
    const message = errorOf(unnamed);
    expect(message).toBe('IDENTITY_PROVIDER must be set in production: manual (the bank reviews the photos) or webhook (an identity provider)');
    expect(errorOf({ ...unnamed, IDENTITY_PROVIDER: ' ' })).toBe(message);
    expect(loadConfig(PRODUCTION).identityCheck.provider).toBe('manual');
    expect(loadConfig({ ...PRODUCTION, IDENTITY_PROVIDER: 'webhook', IDENTITY_WEBHOOK_SECRET: 'w'.repeat(40) }).identityCheck.provider).toBe('webhook');
  });

  it('gives the web app nothing secret', () => {
    const runtime = toRuntimeConfig(
      loadConfig({ CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'site-key', RECAPTCHA_SECRET: 'very-secret', DATABASE_URL: 'postgres://u:pw@db/x' }),
    );
    expect(runtime.captcha).toEqual({ provider: 'recaptcha', siteKey: 'site-key' });
    expect(JSON.stringify(runtime)).not.toMatch(/very-secret|pw@db/);
  });

  it('builds the runtime configuration of the embedded defaults', () => {
    expect(toRuntimeConfig(loadConfig({ SESSION_WARNING_SECONDS: '90', LEGAL_BASE_URL: 'https://legal.divilo.es/docs' }))).toEqual({
      apiBaseUrl: '/api',
      mainAppUrl: 'http://localhost:8080/app',
      supportPhone: '+34 910 000 000',
      legalLinks: {
        privacy: 'https://legal.divilo.es/docs/privacy.pdf',
        precontract: 'https://legal.divilo.es/docs/pre-contract.pdf',
        biometrics: 'https://legal.divilo.es/docs/biometrics.pdf',
        microbusinesses: 'https://legal.divilo.es/docs/microbusinesses.pdf',
        companies: 'https://legal.divilo.es/docs/companies.pdf',
        selfEmployed: 'https://legal.divilo.es/docs/self-employed.pdf',
      },
      identity: {
        region: 'eu-west-1',
        userPoolId: 'local_Divilo1',
        clientId: 'diviloweb',
        endpoint: 'http://localhost:8080/cognito',
        identityPoolEndpoint: 'http://localhost:8080/cognito',
        identityPoolId: 'eu-west-1:00000000-0000-4000-8000-000000000001',
      },
      storage: { region: 'eu-west-1', bucket: 'divilo-documents', endpoint: 'http://localhost:8080/s3', maxDocumentBytes: 20 * 1024 * 1024 },
      captcha: { provider: 'altcha', challengeUrl: '/api/captcha/challenge' },
      sessionWarningSeconds: 90,
      smsCountries: expect.arrayContaining(['ES', 'FR', 'GB', 'CH']),
    });
  });

  it('budgets SMS and e-mails per recipient, person, client address and in total, per window; each limit can be set', () => {
    expect(loadConfig({}).messageBudgets).toEqual({
      windowSeconds: 3600,
      sms: { perRecipient: 6, perPerson: 10, perClient: 50, total: 2000, customersTotal: 2000 },
      email: { perRecipient: 6, perPerson: 10, perClient: 50, total: 5000 },
      smsSpread: { rangeHiddenDigits: 3, perRange: 5, rangeWindowSeconds: 600, spain: 1500, perCountry: 100 },
      unprovenEmail: { perRecipient: 1, windowSeconds: 3600, total: 2000 },
    });
    const set = loadConfig({
      MESSAGE_BUDGET_WINDOW_SECONDS: '600',
      SMS_BUDGET_PER_RECIPIENT: '3',
      SMS_BUDGET_TOTAL: '100',
      SMS_BUDGET_CUSTOMERS_TOTAL: '40',
      EMAIL_BUDGET_PER_CLIENT: '7',
      SMS_RANGE_HIDDEN_DIGITS: '4',
      SMS_BUDGET_PER_RANGE: '2',
      SMS_RANGE_WINDOW_SECONDS: '300',
      SMS_BUDGET_SPAIN: '900',
      SMS_BUDGET_PER_COUNTRY: '20',
      EMAIL_BUDGET_UNPROVEN_PER_RECIPIENT: '2',
      EMAIL_UNPROVEN_WINDOW_SECONDS: '7200',
      EMAIL_BUDGET_UNPROVEN_TOTAL: '300',
    }).messageBudgets;
    expect(set).toEqual({
      windowSeconds: 600,
      sms: { perRecipient: 3, perPerson: 10, perClient: 50, total: 100, customersTotal: 40 },
      email: { perRecipient: 6, perPerson: 10, perClient: 7, total: 5000 },
      smsSpread: { rangeHiddenDigits: 4, perRange: 2, rangeWindowSeconds: 300, spain: 900, perCountry: 20 },
      unprovenEmail: { perRecipient: 2, windowSeconds: 7200, total: 300 },
    });
    expect(errorOf({ SMS_RANGE_HIDDEN_DIGITS: '7' })).toBe('SMS_RANGE_HIDDEN_DIGITS must be a whole number from 1 to 6 (got "7")');
    expect(errorOf({ SMS_BUDGET_CUSTOMERS_TOTAL: '0' })).toBe('SMS_BUDGET_CUSTOMERS_TOTAL must be a whole number from 1 to 100000000 (got "0")');
    expect(errorOf({ SMS_BUDGET_PER_PERSON: '0' })).toBe('SMS_BUDGET_PER_PERSON must be a whole number from 1 to 1000000 (got "0")');
    expect(errorOf({ MESSAGE_BUDGET_WINDOW_SECONDS: 'hourly' })).toContain('MESSAGE_BUDGET_WINDOW_SECONDS must be a whole number');
  });

  it('lets DOCUMENT_MAX_BYTES lower the caps per kind of document, never raise them', () => {
    expect(loadConfig({}).storage.maxDocumentBytes).toBe(20 * 1024 * 1024);
    expect(loadConfig({ DOCUMENT_MAX_BYTES: '1048576' }).storage.maxDocumentBytes).toBe(1024 * 1024);
    expect(errorOf({ DOCUMENT_MAX_BYTES: String(20 * 1024 * 1024 + 1) })).toBe('DOCUMENT_MAX_BYTES must be a whole number from 1024 to 20971520 (got "20971521")');
  });

  describe('the countries the bank texts', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'divilo-sms-countries-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, content: string) => {
      const at = path.join(dir, name);
      writeFileSync(at, content);
      return at;
    };

    it('are Spain, the rest of the EEA, the UK and Switzerland by default: 32, sorted', () => {
      const countries = loadConfig({}).smsCountries;
      expect(countries).toHaveLength(32);
      expect(countries).toEqual([...countries].sort());
      expect(countries).toEqual(expect.arrayContaining(['ES', 'PT', 'NO', 'IS', 'LI', 'GB', 'CH']));
      for (const outside of ['CU', 'SO', 'TL', 'US', 'AD']) expect(countries).not.toContain(outside);
    });

    it('come from the file SMS_COUNTRIES_FILE names, read at start', () => {
      expect(loadConfig({ SMS_COUNTRIES_FILE: file('two.json', '{ "countries": [{ "iso2": "PT" }, { "iso2": "ES" }, { "iso2": "ES" }] }') }).smsCountries).toEqual(['ES', 'PT']);
    });

    it('stop the start when the file is missing, not JSON, empty or names something that is no country', () => {
      expect(errorOf({ SMS_COUNTRIES_FILE: path.join(dir, 'missing.json') })).toContain('SMS_COUNTRIES_FILE must name a file that exists');
      for (const content of ['not json', '{ "countries": [] }', '{ "countries": [{ "iso2": "es" }] }', '{ "countries": [{ "iso2": "XX" }] }', '["ES"]']) {
        expect(errorOf({ SMS_COUNTRIES_FILE: file('bad.json', content) })).toMatch(/^SMS_COUNTRIES_FILE must be JSON like server\/data\/sms-countries.json/);
      }
    });
  });
});
