import { ConfigError, loadConfig, toRuntimeConfig } from '../../server/config';

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('no error');
}

describe('configuration', () => {
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
      sessionIdleSeconds: 300,
      identity: { userPoolId: 'local_Divilo1', endpoint: 'http://localhost:8080/cognito', region: 'eu-west-1' },
      storage: { endpoint: 'http://localhost:8080/s3', bucket: 'divilo-documents' },
      captcha: { provider: 'altcha' },
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: ' ' }).databaseUrl).toBeUndefined();
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ PUBLIC_URL: 'not a url' }, 'PUBLIC_URL'],
    [{ CORS_ORIGINS: 'https://ok.es,nope' }, 'CORS_ORIGINS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SESSION_IDLE_SECONDS: '600' }, 'SESSION_IDLE_SECONDS'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ AWS_REGION: 'Europe' }, 'AWS_REGION'],
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, 'RECAPTCHA_SITE_KEY'],
    [{ RECAPTCHA_MIN_SCORE: '2' }, 'RECAPTCHA_MIN_SCORE'],
  ])('%j is refused with one line naming %s', (env, name) => {
    const message = errorOf(env);
    expect(message.startsWith(name)).toBe(true);
    expect(message).not.toContain('\n');
  });

  it('gives the web app nothing secret', () => {
    const runtime = toRuntimeConfig(
      loadConfig({ CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'site-key', RECAPTCHA_SECRET: 'very-secret', DATABASE_URL: 'postgres://u:pw@db/x' }),
    );
    expect(runtime.captcha).toEqual({ provider: 'recaptcha', siteKey: 'site-key' });
    expect(JSON.stringify(runtime)).not.toMatch(/very-secret|pw@db/);
  });
});
