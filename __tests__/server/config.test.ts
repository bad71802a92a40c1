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
  CONTRACT_TEMPLATES_DIR: SAMPLE_TEMPLATES,
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
    const config = loadConfig({ ...PRODUCTION, COGNITO_USER_POOL_ID: 'eu-west-1_AbC123', S3_BUCKET: 'divilo-prod-docs' });
    expect(config).toMatchObject({ production: true, host: '0.0.0.0', identity: { embedded: false }, storage: { embedded: false } });
    expect(config.identity.endpoint).toBeUndefined();
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
    [{ SERVER_SECRET: 'c2hvcnQ=' }, 'SERVER_SECRET'],
    [{ CAPTCHA_PROVIDER: 'hcaptcha' }, 'CAPTCHA_PROVIDER'],
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, 'RECAPTCHA_SITE_KEY'],
    [{ RECAPTCHA_MIN_SCORE: '2' }, 'RECAPTCHA_MIN_SCORE'],
    [{ CODE_MAX_ATTEMPTS: '6' }, 'CODE_MAX_ATTEMPTS'],
    [{ SMS_PROVIDER_URL: 'https://sms.example' }, 'SMS_PROVIDER_API_KEY'],
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

  it('checks identity photos with the built-in check unless a provider is named, and never repeats the webhook secret', () => {
    expect(loadConfig({}).identityCheck).toEqual({ provider: 'builtin', webhookSecret: undefined });
    const secret = 'w'.repeat(40);
    expect(loadConfig({ IDENTITY_PROVIDER: 'webhook', IDENTITY_WEBHOOK_SECRET: secret }).identityCheck).toEqual({ provider: 'webhook', webhookSecret: secret });
    expect(errorOf({ IDENTITY_WEBHOOK_SECRET: 'short-secret' })).not.toContain('short-secret');
    expect(JSON.stringify(toRuntimeConfig(loadConfig({ IDENTITY_WEBHOOK_SECRET: secret })))).not.toContain(secret);
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
        identityPoolId: 'eu-west-1:00000000-0000-4000-8000-000000000001',
      },
      storage: { region: 'eu-west-1', bucket: 'divilo-documents', endpoint: 'http://localhost:8080/s3', maxDocumentBytes: 20 * 1024 * 1024 },
      captcha: { provider: 'altcha', challengeUrl: '/api/captcha/challenge' },
      sessionWarningSeconds: 90,
    });
  });
});
