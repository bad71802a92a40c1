import { existsSync, readFileSync } from 'node:fs';
import { isSupportedCountry } from 'libphonenumber-js/min';
import { awsPartition } from '../src/config/awsPartition';
import type { RuntimeConfig } from '../src/config/runtimeConfig';
import { LARGEST_DOCUMENT_BYTES } from '../src/validation/documentLimits';
import { ContractTemplateError, loadContractTemplates, type ContractTemplates } from './services/contractTemplates';
import type { IdentityProvider } from './services/identityCheck';
import type { MessageBudgetLimits, SmsSpreadLimits, UnprovenEmailLimits } from './services/messaging/budget';
import { telemetrySettings, TelemetrySettingError, type TelemetrySettings } from './telemetry/settings';
import { atRoot } from './paths';
import { RETENTION_DEFAULTS, type RetentionSettings } from './services/retention';

/** A configuration value that cannot be used: the message is one line naming the variable. */
export class ConfigError extends Error {}

export interface Config {
  port: number;
  host: string;
  production: boolean;
  /** How long a request has to arrive whole, body included (REQUEST_TIMEOUT_SECONDS). */
  requestTimeoutMs: number;
  /** How long requests in flight may take to finish after SIGTERM before the process stops anyway (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceMs: number;
  /** The FATF lists the risk factor reads (HIGH_RISK_COUNTRIES_FILE; default the copy in server/data). */
  highRiskCountriesFile?: string;
  /** Serve the OpenAPI reader at /docs (API_DOCS; off by default in production). */
  apiDocs: boolean;
  dataDir: string;
  databaseUrl?: string;
  publicUrl: string;
  corsOrigins: string[];
  mainAppUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `true` behind a proxy that sets X-Forwarded-*; a number trusts only that many hops. */
  trustProxy: boolean | number;
  /** `sensitiveMax`: the tighter limit of the routes that send codes, check captchas or change passwords. */
  rateLimit: { max: number; windowMs: number; sensitiveMax: number };
  /**
   * The Redis every server process keeps its rate-limit counters in (REDIS_URL), their keys under `keyPrefix`
   * (REDIS_KEY_PREFIX); unset: each process counts on its own, in memory.
   */
  redis?: { url: string; keyPrefix: string };
  supportPhone: string;
  /** Years the law keeps what the bank relied on (RETENTION_CUSTOMER_YEARS, RETENTION_REFUSED_YEARS; server/services/retention.ts). */
  retention: RetentionSettings;
  legalBaseUrl: string;
  sessionIdleSeconds: number;
  onboardingTokenSeconds: number;
  /** How long an onboarding session lasts from its e-mail code, renewals included (docs/onboarding.md). */
  onboardingSessionMaxSeconds: number;
  sessionWarningSeconds: number;
  /**
   * `embedded`: the server answers as the Cognito user and identity pools itself. `endpoint` is the user pool's
   * (cognito-idp), `identityPoolEndpoint` the identity pool's (cognito-identity): both absent means AWS itself.
   * `jwksUrl`: where the pool's token signing keys are read (absent: beside the issuer, AWS's own).
   * `developerProvider`: the identity pool's developer provider name, under which applicants get storage identities.
   */
  identity: RuntimeConfig['identity'] & { jwksUrl?: string; developerProvider: string; embedded: boolean };
  /**
   * The bank's staff (the back office): their own user pool (STAFF_USER_POOL_ID, STAFF_CLIENT_ID; beside the
   * customers' on the embedded service, a pool of its own on AWS, where unset means no back office), sessions
   * that end after `sessionIdleSeconds` unused (STAFF_SESSION_IDLE_SECONDS) and `sessionMaxSeconds` in all, and
   * the time an application should wait for a decision (REVIEW_TARGET_HOURS), which the queue measures against.
   */
  staff?: { userPoolId: string; clientId: string; jwksUrl?: string; sessionIdleSeconds: number; sessionMaxSeconds: number; reviewTargetHours: number };
  /** `maxDocumentBytes`: the largest document an applicant may upload (checked in the browser and by the server). */
  storage: RuntimeConfig['storage'] & { embedded: boolean };
  /** Base64, at least 32 bytes; unset means one kept in DATA_DIR (embedded defaults). */
  serverSecret?: string;
  /**
   * `maxAttempts` wrong codes per person and client, `clientMaxAttempts` per client address for everyone, and
   * `personMaxAttempts` per person from every client, each within `lockSeconds` (docs/login.md, "Codes").
   */
  codes: { ttlSeconds: number; resendSeconds: number; maxAttempts: number; lockSeconds: number; clientMaxAttempts: number; personMaxAttempts: number };
  /**
   * How many SMS and e-mails may go out per window (MESSAGE_BUDGET_WINDOW_SECONDS), per recipient, per person
   * (application, sign-up or login user), per client address and in total (docs/server.md, "Message budgets").
   */
  messageBudgets: {
    windowSeconds: number;
    sms: MessageBudgetLimits & { customersTotal: number };
    email: MessageBudgetLimits;
    smsSpread: SmsSpreadLimits;
    unprovenEmail: UnprovenEmailLimits;
  };
  /**
   * The countries whose mobile numbers the bank texts (ISO codes, from SMS_COUNTRIES_FILE or the copy in
   * server/data); read at start.
   */
  smsCountries: string[];
  /** Real providers when configured; the outbox otherwise (never in production). */
  messaging: { sms?: SmsProviderConfig; smtp?: { url: string; from: string } };
  /**
   * `altchaCost`: PBKDF2 iterations per attempt of the built-in captcha; the work a browser does (and a bulk
   * sender pays) grows with it.
   */
  captcha: { provider: 'altcha' | 'recaptcha'; siteKey?: string; secret?: string; minScore: number; altchaCost: number };
  /**
   * Who checks the identity photos (IDENTITY_PROVIDER): the bank's reviewer after the server's own image checks
   * (`manual`), or a provider that answers at the webhook, signed with `webhookSecret` (IDENTITY_WEBHOOK_SECRET;
   * unset: the webhook takes nothing). `faceDetection` (IDENTITY_FACE_DETECTION): for `manual`, whether a face
   * detector flags a selfie or a document without a face for the reviewer.
   */
  identityCheck: { provider: IdentityProvider; webhookSecret?: string; faceDetection: boolean };
  /** The PKCS#12 certificate signed contracts are sealed with; unset means a self-signed sandbox seal kept in DATA_DIR. */
  seal: { p12File?: string; passphrase?: string };
  /**
   * The words of the contract, per language, from the bank's templates in CONTRACT_TEMPLATES_DIR (read and checked
   * at start); unset means the sample (never in production).
   */
  contractTemplates: ContractTemplates;
  /** The OTLP export (OTEL_* variables) and the private /metrics listener (METRICS_PORT, METRICS_HOST): docs/server.md, "Watching it". */
  telemetry: TelemetrySettings;
}

/**
 * Where SMS go (SMS_PROVIDER): Amazon SNS (`senderId`: SMS_SENDER, the alphanumeric sender ID; SMS_ORIGINATION_NUMBER,
 * SMS_MAX_PRICE_USD; the region and endpoint of the AWS settings), or the generic HTTP sender of docs/server.md
 * (SMS_PROVIDER_URL, SMS_PROVIDER_API_KEY, SMS_SENDER). Absent: the outbox.
 */
export type SmsProviderConfig =
  | { provider: 'sns'; region: string; endpoint?: string; senderId: string; originationNumber?: string; maxPriceUsd?: string }
  | { provider: 'http'; url: string; apiKey: string; sender: string };

const IDENTITY_PROVIDERS: readonly IdentityProvider[] = ['manual', 'webhook'];
/** The shortest webhook secret taken: an HMAC key guessable by nobody. */
const WEBHOOK_SECRET_MIN = 32;

type Env = Record<string, string | undefined>;

/** Reads one variable; empty counts as unset. */
function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

/** A bad value as the error shows it: quoted on one line, and cut short (it may be anything). */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);
}

/**
 * PBKDF2 iterations per attempt of the built-in captcha: with its counter range, about 200 000 rounds on average,
 * under a second in a phone's browser and costly in bulk.
 */
const ALTCHA_DEFAULT_COST = 50;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got ${shown(raw)})`);
  }
  return Number(raw);
}

function number(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new ConfigError(`${name} must be a number from ${min} to ${max} (got ${shown(raw)})`);
  return value;
}

/** URLs that may carry a password (DATABASE_URL, SMTP_URL, ...): their value never appears in an error. */
const CREDENTIAL_URLS = new Set(['DATABASE_URL', 'SMTP_URL', 'SMS_PROVIDER_URL', 'REDIS_URL']);

function url(env: Env, name: string, fallback?: string, protocols = ['http:', 'https:']): string | undefined {
  const raw = read(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  const got = CREDENTIAL_URLS.has(name) ? '' : ` (got ${shown(raw)})`;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL${got}`);
  }
  if (!protocols.includes(parsed.protocol)) throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}${got}`);
  if (!parsed.hostname) throw new ConfigError(`${name} must name a host${got}`);
  return raw.replace(/\/+$/, '');
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got ${shown(raw)})`);
  return raw as T;
}

/** `true`/`false`, or the number of proxies in front of the server (only their X-Forwarded-For entries are trusted). */
function trustProxy(env: Env, name: string): boolean | number {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return false;
  if (['true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  if (/^\d+$/.test(raw) && Number(raw) <= 10) return Number(raw);
  throw new ConfigError(`${name} must be true, false or a number of proxies from 0 to 10 (got ${shown(raw)})`);
}

function host(env: Env, name: string, fallback: string): string {
  const raw = read(env, name) ?? fallback;
  // A host name, an IPv4 address or an IPv6 address: what listen() accepts, nothing with a scheme or port.
  if (!/^([A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}$|^[0-9a-fA-F:.]*:[0-9a-fA-F:.]*$/.test(raw)) {
    throw new ConfigError(`${name} must be a host name or an IP address such as 127.0.0.1 (got ${shown(raw)})`);
  }
  return raw;
}

function matching(env: Env, name: string, pattern: RegExp, fallback: string, what: string): string {
  const raw = read(env, name) ?? fallback;
  if (!pattern.test(raw)) throw new ConfigError(`${name} must be ${what} (got ${shown(raw)})`);
  return raw;
}

function existingFile(env: Env, name: string): string | undefined {
  const value = read(env, name);
  if (value !== undefined && !existsSync(value)) throw new ConfigError(`${name} must name a file that exists (got ${shown(value)})`);
  return value;
}

function required(env: Env, name: string, because: string): string {
  const value = read(env, name);
  if (value === undefined) throw new ConfigError(`${name} must be set when ${because} is`);
  return value;
}

/**
 * The endpoints of the AWS services when a real pool or bucket is configured: the product's own variables
 * first (COGNITO_ENDPOINT serves both Cognito services unless COGNITO_IDENTITY_ENDPOINT names the identity
 * pool's), then the AWS SDK's `AWS_ENDPOINT_URL_<SERVICE>` and `AWS_ENDPOINT_URL`, which the SDK would follow
 * on its own: read here, the browser, the CSP and the key fetch follow them too. Unset: AWS itself.
 */
function awsEndpoints(env: Env): { cognitoIdp?: string; cognitoIdentity?: string; s3?: string; sns?: string } {
  const ignoreAws = read(env, 'AWS_IGNORE_CONFIGURED_ENDPOINT_URLS')?.toLowerCase() === 'true';
  const aws = (service: string) => (ignoreAws ? undefined : (url(env, `AWS_ENDPOINT_URL_${service}`) ?? url(env, 'AWS_ENDPOINT_URL')));
  const cognito = url(env, 'COGNITO_ENDPOINT');
  return {
    cognitoIdp: cognito ?? aws('COGNITO_IDENTITY_PROVIDER'),
    cognitoIdentity: url(env, 'COGNITO_IDENTITY_ENDPOINT') ?? cognito ?? aws('COGNITO_IDENTITY'),
    s3: url(env, 'S3_ENDPOINT') ?? aws('S3'),
    sns: aws('SNS'),
  };
}

/**
 * Configurations that would start and then fail their users: part on AWS and part embedded, or AWS pools
 * without their ids. Each is refused at start with one line.
 */
function refuseHalfExternal(
  env: Env,
  { embeddedIdentity, embeddedStorage, region, userPoolId, identityPoolId }: { embeddedIdentity: boolean; embeddedStorage: boolean; region: string; userPoolId: string; identityPoolId: string },
): void {
  // The embedded storage endpoint takes only the embedded identity pool's credentials, and AWS S3 never takes them.
  if (!embeddedIdentity && embeddedStorage) throw new ConfigError('S3_BUCKET must be set when COGNITO_USER_POOL_ID is: the embedded storage takes only the embedded identity pool\'s credentials');
  if (embeddedIdentity && !embeddedStorage) throw new ConfigError('COGNITO_USER_POOL_ID must be set when S3_BUCKET is: an AWS bucket takes no credentials of the embedded identity pool');
  if (embeddedIdentity) return;
  // The embedded defaults name no real client or identity pool.
  for (const name of ['COGNITO_CLIENT_ID', 'COGNITO_IDENTITY_POOL_ID']) {
    if (read(env, name) === undefined) throw new ConfigError(`${name} must be set when COGNITO_USER_POOL_ID is`);
  }
  // Both ids start with their region, and the server's clients call AWS_REGION's endpoints.
  if (!userPoolId.startsWith(`${region}_`)) throw new ConfigError(`COGNITO_USER_POOL_ID must be a pool of AWS_REGION ${region} (got ${shown(userPoolId)})`);
  if (!identityPoolId.startsWith(`${region}:`)) throw new ConfigError(`COGNITO_IDENTITY_POOL_ID must be a pool of AWS_REGION ${region} (got ${shown(identityPoolId)})`);
}

/** The bank's list of the countries it texts, with its source and reason (docs/onboarding.md, "Phone"). */
const SMS_COUNTRIES_FILE = atRoot('server/data/sms-countries.json');

/** The codes of SMS_COUNTRIES_FILE (`{ "countries": [{ "iso2": "ES" }, …] }`), each a country with phone numbers. */
function smsCountries(env: Env): string[] {
  const file = existingFile(env, 'SMS_COUNTRIES_FILE') ?? SMS_COUNTRIES_FILE;
  const shape = 'JSON like server/data/sms-countries.json: { "countries": [{ "iso2": "ES" }, …] } with ISO 3166-1 alpha-2 codes';
  let codes: unknown;
  try {
    codes = (JSON.parse(readFileSync(file, 'utf8')) as { countries?: { iso2?: unknown }[] }).countries?.map((country) => country.iso2);
  } catch {
    throw new ConfigError(`SMS_COUNTRIES_FILE must be ${shape}`);
  }
  if (!Array.isArray(codes) || codes.length === 0 || !codes.every((code) => typeof code === 'string' && /^[A-Z]{2}$/.test(code) && isSupportedCountry(code))) {
    throw new ConfigError(`SMS_COUNTRIES_FILE must be ${shape}`);
  }
  return [...new Set(codes as string[])].sort();
}

/** The variables each SMS provider reads beyond SMS_SENDER: set for another provider, they would be ignored. */
const SMS_PROVIDER_VARIABLES = { sns: ['SMS_ORIGINATION_NUMBER', 'SMS_MAX_PRICE_USD'], http: ['SMS_PROVIDER_URL', 'SMS_PROVIDER_API_KEY'] } as const;

/**
 * The SMS provider (SMS_PROVIDER: sns, http or outbox; unset, http when SMS_PROVIDER_URL is set, the outbox
 * otherwise). Production texts people: never the outbox. A variable of another provider than the one chosen is a
 * half-configuration (the bank would believe it in use) and stops the start.
 */
function smsProvider(env: Env, production: boolean, region: string, endpoint: string | undefined): SmsProviderConfig | undefined {
  const provider = oneOf(env, 'SMS_PROVIDER', ['sns', 'http', 'outbox'] as const, read(env, 'SMS_PROVIDER_URL') === undefined ? 'outbox' : 'http');
  if (production && provider === 'outbox') throw new ConfigError('SMS_PROVIDER must be sns or http in production: the outbox is for development only');
  for (const [other, names] of Object.entries(SMS_PROVIDER_VARIABLES)) {
    const stray = other === provider ? undefined : names.find((name) => read(env, name) !== undefined);
    if (stray) throw new ConfigError(`${stray} is used only when SMS_PROVIDER is ${other} (it is ${provider})`);
  }
  if (provider === 'outbox') return undefined;
  if (provider === 'http') {
    if (read(env, 'SMS_PROVIDER_URL') === undefined) throw new ConfigError('SMS_PROVIDER_URL must be set when SMS_PROVIDER is http');
    const providerUrl = url(env, 'SMS_PROVIDER_URL')!;
    if (production && !providerUrl.startsWith('https://')) throw new ConfigError('SMS_PROVIDER_URL must start with https:// in production: every request carries the API key');
    return { provider, url: providerUrl, apiKey: required(env, 'SMS_PROVIDER_API_KEY', 'SMS_PROVIDER_URL'), sender: read(env, 'SMS_SENDER') ?? 'Divilo' };
  }
  // SNS's rule for an alphanumeric sender ID; Spain's operators also block one the CNMC has not registered (docs/deploy.md).
  const senderId = matching(env, 'SMS_SENDER', /^(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{3,11}$/, 'Divilo', 'a sender ID of 3 to 11 letters and digits, at least one a letter');
  const originationNumber = read(env, 'SMS_ORIGINATION_NUMBER') === undefined ? undefined : matching(env, 'SMS_ORIGINATION_NUMBER', /^\+[1-9]\d{1,14}$/, '', 'a phone number in E.164 such as +34600000000');
  const maxPriceUsd = read(env, 'SMS_MAX_PRICE_USD');
  if (maxPriceUsd !== undefined && !(/^\d{1,2}(\.\d{1,5})?$/.test(maxPriceUsd) && Number(maxPriceUsd) > 0)) {
    throw new ConfigError(`SMS_MAX_PRICE_USD must be a price in US dollars above 0 and below 100, such as 0.15 (got ${shown(maxPriceUsd)})`);
  }
  return { provider, region, endpoint, senderId, originationNumber, maxPriceUsd };
}

/**
 * Messages per window: a handful per recipient and per person (a code, its resends and a number corrected
 * twice fit), tens per client address (an office or a mobile network's shared address), and a total that caps
 * the bank's bill for an hour well above its busiest one.
 */
const MESSAGE_BUDGET_DEFAULTS: Record<'sms' | 'email', MessageBudgetLimits> = {
  sms: { perRecipient: 6, perPerson: 10, perClient: 50, total: 2000 },
  email: { perRecipient: 6, perPerson: 10, perClient: 50, total: 5000 },
};

/** `SMS_BUDGET_PER_RECIPIENT`, `…_PER_PERSON`, `…_PER_CLIENT`, `…_TOTAL` (and the same for `EMAIL_`). */
function budgetLimits(env: Env, channel: 'SMS' | 'EMAIL', defaults: MessageBudgetLimits): MessageBudgetLimits {
  return {
    perRecipient: integer(env, `${channel}_BUDGET_PER_RECIPIENT`, defaults.perRecipient, 1, 1_000_000),
    perPerson: integer(env, `${channel}_BUDGET_PER_PERSON`, defaults.perPerson, 1, 1_000_000),
    perClient: integer(env, `${channel}_BUDGET_PER_CLIENT`, defaults.perClient, 1, 1_000_000),
    total: integer(env, `${channel}_BUDGET_TOTAL`, defaults.total, 1, 100_000_000),
  };
}

/**
 * Applicants' SMS spread over numbers: a pumping ring texts numbers it owns, consecutive in one range, or premium
 * ranges of a far country. A range (the number less its last 3 digits: 1,000 numbers) gets 5 SMS in 10 minutes,
 * where real applicants' numbers are scattered over millions; Spain, where the bank's applicants are, most of the
 * applicants' total; every other calling code 100 an hour (a few applicants with a foreign mobile).
 */
const SMS_SPREAD_DEFAULTS: SmsSpreadLimits = { rangeHiddenDigits: 3, perRange: 5, rangeWindowSeconds: 600, spain: 1500, perCountry: 100 };

/** `SMS_RANGE_HIDDEN_DIGITS`, `SMS_BUDGET_PER_RANGE`, `SMS_RANGE_WINDOW_SECONDS`, `SMS_BUDGET_SPAIN`, `SMS_BUDGET_PER_COUNTRY`. */
function smsSpread(env: Env): SmsSpreadLimits {
  const defaults = SMS_SPREAD_DEFAULTS;
  return {
    rangeHiddenDigits: integer(env, 'SMS_RANGE_HIDDEN_DIGITS', defaults.rangeHiddenDigits, 1, 6),
    perRange: integer(env, 'SMS_BUDGET_PER_RANGE', defaults.perRange, 1, 1_000_000),
    rangeWindowSeconds: integer(env, 'SMS_RANGE_WINDOW_SECONDS', defaults.rangeWindowSeconds, 60, 86_400),
    spain: integer(env, 'SMS_BUDGET_SPAIN', defaults.spain, 1, 100_000_000),
    perCountry: integer(env, 'SMS_BUDGET_PER_COUNTRY', defaults.perCountry, 1, 100_000_000),
  };
}

/**
 * An address that never entered a code gets one e-mail an hour (its code, and a resend an hour later): a made-up
 * address costs the bank one e-mail, not six. All such addresses together: 2000 an hour, far above the sign-ups of
 * the bank's busiest hour, apart from the total of the addresses that proved themselves.
 */
const UNPROVEN_EMAIL_DEFAULTS: UnprovenEmailLimits = { perRecipient: 1, windowSeconds: 3600, total: 2000 };

/** `EMAIL_BUDGET_UNPROVEN_PER_RECIPIENT`, `EMAIL_UNPROVEN_WINDOW_SECONDS`, `EMAIL_BUDGET_UNPROVEN_TOTAL`. */
function unprovenEmail(env: Env): UnprovenEmailLimits {
  const defaults = UNPROVEN_EMAIL_DEFAULTS;
  return {
    perRecipient: integer(env, 'EMAIL_BUDGET_UNPROVEN_PER_RECIPIENT', defaults.perRecipient, 1, 1_000_000),
    windowSeconds: integer(env, 'EMAIL_UNPROVEN_WINDOW_SECONDS', defaults.windowSeconds, 60, 86_400),
    total: integer(env, 'EMAIL_BUDGET_UNPROVEN_TOTAL', defaults.total, 1, 100_000_000),
  };
}

/** The contract's templates from the folder `name` gives, checked whole; the sample without one, except in production. */
function templates(env: Env, name: string, production: boolean): ContractTemplates {
  const dir = read(env, name);
  if (production && dir === undefined) throw new ConfigError(`${name} must be set in production: the sample contract is not legally binding`);
  try {
    return loadContractTemplates(dir);
  } catch (error) {
    if (error instanceof ContractTemplateError) throw new ConfigError(`${name}: ${error.message}`);
    throw error;
  }
}

function telemetry(env: Env, port: number): TelemetrySettings {
  try {
    return telemetrySettings(env, port);
  } catch (error) {
    if (error instanceof TelemetrySettingError) throw new ConfigError(error.message);
    throw error;
  }
}

/** The staff pool: beside the customers' on the embedded service; on AWS, named or none (no back office). */
function staffOf(env: Env, identity: Config['identity']): Config['staff'] {
  const named = read(env, 'STAFF_USER_POOL_ID');
  if (!identity.embedded && named === undefined) {
    if (read(env, 'STAFF_CLIENT_ID') !== undefined) throw new ConfigError('STAFF_USER_POOL_ID must be set when STAFF_CLIENT_ID is');
    return undefined;
  }
  const userPoolId = matching(env, 'STAFF_USER_POOL_ID', /^[\w-]+_[0-9a-zA-Z]+$/, 'local_DiviloStaff1', 'a user pool id such as eu-west-1_AbC123');
  if (userPoolId === identity.userPoolId) throw new ConfigError('STAFF_USER_POOL_ID must not be the customers\' pool (COGNITO_USER_POOL_ID)');
  // The server's clients call AWS_REGION's endpoints, as for the customers' pool.
  if (!identity.embedded && !userPoolId.startsWith(`${identity.region}_`)) throw new ConfigError(`STAFF_USER_POOL_ID must be a pool of AWS_REGION ${identity.region} (got ${shown(userPoolId)})`);
  if (!identity.embedded && read(env, 'STAFF_CLIENT_ID') === undefined) throw new ConfigError('STAFF_CLIENT_ID must be set when STAFF_USER_POOL_ID is');
  const clientId = matching(env, 'STAFF_CLIENT_ID', /^[\w+]{1,128}$/, 'divilostaff', 'an app client id (letters, digits, _ and +)');
  if (clientId === identity.clientId) throw new ConfigError('STAFF_CLIENT_ID must not be the customers\' client (COGNITO_CLIENT_ID)');
  const endpoint = identity.endpoint;
  return {
    userPoolId,
    clientId,
    jwksUrl: url(env, 'STAFF_JWKS_URL', endpoint && `${endpoint}/${userPoolId}/.well-known/jwks.json`),
    // Fifteen minutes unused at most: a reviewer's screen left open shows applicants' data to whoever passes by.
    sessionIdleSeconds: integer(env, 'STAFF_SESSION_IDLE_SECONDS', 900, 60, 900),
    sessionMaxSeconds: integer(env, 'STAFF_SESSION_MAX_SECONDS', 10 * 3600, 900, 12 * 3600),
    reviewTargetHours: integer(env, 'REVIEW_TARGET_HOURS', 48, 1, 24 * 30),
  };
}

/** The server's configuration from the environment, every value checked; a bad one throws a ConfigError. */
export function loadConfig(env: Env = process.env): Config {
  const production = oneOf(env, 'NODE_ENV', ['development', 'test', 'production'] as const, 'development') === 'production';
  const port = integer(env, 'PORT', 8080, 1, 65535);
  const publicUrl = url(env, 'PUBLIC_URL', `http://localhost:${port}`)!;
  // The session cookie is Secure: outside localhost a browser keeps it only over HTTPS.
  if (production && !publicUrl.startsWith('https://')) throw new ConfigError('PUBLIC_URL must start with https:// in production');
  const databaseUrl = url(env, 'DATABASE_URL', undefined, ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', undefined, ['redis:', 'rediss:']);
  const corsOrigins = (read(env, 'CORS_ORIGINS') ?? new URL(publicUrl).origin).split(',').map((origin, index) => {
    const value = origin.trim();
    const parsed = URL.canParse(value) ? new URL(value) : undefined;
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol)) {
      throw new ConfigError(`CORS_ORIGINS must be a comma-separated list of http(s) origins (entry ${index + 1} is ${shown(value)})`);
    }
    return parsed.origin;
  });
  const region = read(env, 'AWS_REGION') ?? 'eu-west-1';
  if (!awsPartition(region)) throw new ConfigError(`AWS_REGION must be an AWS region such as eu-west-1, cn-north-1 or us-gov-west-1 (got ${shown(region)})`);
  const embeddedIdentity = read(env, 'COGNITO_USER_POOL_ID') === undefined;
  const embeddedStorage = read(env, 'S3_BUCKET') === undefined;
  const endpoints = awsEndpoints(env);
  const sessionIdleSeconds = integer(env, 'SESSION_IDLE_SECONDS', 300, 30, 300);
  const onboardingTokenSeconds = integer(env, 'ONBOARDING_TOKEN_SECONDS', 1800, 60, 86_400);
  const sessionWarningSeconds = integer(env, 'SESSION_WARNING_SECONDS', 60, 10, 600);
  const onboardingSessionMaxSeconds = integer(env, 'ONBOARDING_SESSION_MAX_SECONDS', 86_400, 3600, 30 * 86_400);
  if (onboardingSessionMaxSeconds < onboardingTokenSeconds) {
    throw new ConfigError(`ONBOARDING_SESSION_MAX_SECONDS must not be less than ONBOARDING_TOKEN_SECONDS (${onboardingSessionMaxSeconds} < ${onboardingTokenSeconds})`);
  }
  if (sessionWarningSeconds >= onboardingTokenSeconds) {
    throw new ConfigError(`SESSION_WARNING_SECONDS must be less than ONBOARDING_TOKEN_SECONDS (${sessionWarningSeconds} >= ${onboardingTokenSeconds})`);
  }

  const serverSecret = read(env, 'SERVER_SECRET');
  if (serverSecret !== undefined && (!/^[A-Za-z0-9+/]+={0,2}$/.test(serverSecret) || Buffer.from(serverSecret, 'base64').length < 32)) {
    throw new ConfigError('SERVER_SECRET must be at least 32 bytes in base64');
  }
  if (production && serverSecret === undefined) throw new ConfigError('SERVER_SECRET must be set in production');
  if (production && read(env, 'SMTP_URL') === undefined) throw new ConfigError('SMTP_URL must be set in production: the outbox is for development only');
  // Who verifies an applicant's identity is the bank's decision: production never falls back on a default.
  if (production && read(env, 'IDENTITY_PROVIDER') === undefined) {
    throw new ConfigError('IDENTITY_PROVIDER must be set in production: manual (the bank reviews the photos) or webhook (an identity provider)');
  }
  const identityProvider = oneOf(env, 'IDENTITY_PROVIDER', IDENTITY_PROVIDERS, 'manual');
  const webhookSecret = read(env, 'IDENTITY_WEBHOOK_SECRET');
  // The secret's value never appears in an error.
  if (webhookSecret !== undefined && webhookSecret.length < WEBHOOK_SECRET_MIN) throw new ConfigError(`IDENTITY_WEBHOOK_SECRET must be at least ${WEBHOOK_SECRET_MIN} characters`);
  if (identityProvider === 'webhook' && webhookSecret === undefined) throw new ConfigError('IDENTITY_WEBHOOK_SECRET must be set when IDENTITY_PROVIDER is webhook');
  const sealFile = existingFile(env, 'SEAL_P12_FILE');
  if (production && sealFile === undefined) throw new ConfigError('SEAL_P12_FILE must be set in production: the sandbox seal is self-signed');
  const contractTemplates = templates(env, 'CONTRACT_TEMPLATES_DIR', production);
  const captchaProvider = oneOf(env, 'CAPTCHA_PROVIDER', ['altcha', 'recaptcha'] as const, 'altcha');
  const identityEndpoint = embeddedIdentity ? url(env, 'COGNITO_ENDPOINT', `${publicUrl}/cognito`) : endpoints.cognitoIdp;
  const userPoolId = matching(env, 'COGNITO_USER_POOL_ID', /^[\w-]+_[0-9a-zA-Z]+$/, 'local_Divilo1', 'a user pool id such as eu-west-1_AbC123');
  const identity: Config['identity'] = {
    region,
    userPoolId,
    clientId: matching(env, 'COGNITO_CLIENT_ID', /^[\w+]{1,128}$/, 'diviloweb', 'an app client id (letters, digits, _ and +)'),
    endpoint: identityEndpoint,
    identityPoolEndpoint: embeddedIdentity ? url(env, 'COGNITO_IDENTITY_ENDPOINT', identityEndpoint) : endpoints.cognitoIdentity,
    // The keys are where the pool answers: at the configured endpoint, or beside AWS's issuer.
    jwksUrl: url(env, 'COGNITO_JWKS_URL', identityEndpoint && `${identityEndpoint}/${userPoolId}/.well-known/jwks.json`),
    identityPoolId: matching(env, 'COGNITO_IDENTITY_POOL_ID', /^[\w-]+:[0-9a-f-]+$/, `${region}:00000000-0000-4000-8000-000000000001`, 'an identity pool id such as eu-west-1:uuid'),
    developerProvider: matching(env, 'COGNITO_DEVELOPER_PROVIDER', /^[\w.-]{1,100}$/, 'login.divilo.onboarding', 'a developer provider name such as login.example.app'),
    embedded: embeddedIdentity,
  };
  const staff = staffOf(env, identity);
  const bucket = matching(env, 'S3_BUCKET', /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'divilo-documents', 'an S3 bucket name');
  refuseHalfExternal(env, { embeddedIdentity, embeddedStorage, region, userPoolId, identityPoolId: identity.identityPoolId });
  if (captchaProvider === 'recaptcha') {
    for (const name of ['RECAPTCHA_SITE_KEY', 'RECAPTCHA_SECRET']) {
      if (!read(env, name)) throw new ConfigError(`${name} must be set when CAPTCHA_PROVIDER is recaptcha`);
    }
  }

  return {
    port,
    // A developer's machine does not expose the server to its network; a container in production must.
    host: host(env, 'HOST', production ? '0.0.0.0' : '127.0.0.1'),
    production,
    // A 5 MiB upload part takes about 84 s at 0.5 Mbit/s, a slow phone line: two minutes leave room for it.
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_SECONDS', 120, 1, 3600) * 1000,
    // Under ECS's stop timeout (deploy/lib/stack.ts), which kills the container when it is over.
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_SECONDS', 25, 1, 115) * 1000,
    highRiskCountriesFile: existingFile(env, 'HIGH_RISK_COUNTRIES_FILE'),
    apiDocs: oneOf(env, 'API_DOCS', ['true', 'false'] as const, production ? 'false' : 'true') === 'true',
    dataDir: read(env, 'DATA_DIR') ?? './data',
    databaseUrl,
    publicUrl,
    corsOrigins,
    mainAppUrl: url(env, 'MAIN_APP_URL', `${publicUrl}/app`)!,
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    trustProxy: trustProxy(env, 'TRUST_PROXY'),
    rateLimit: {
      max: integer(env, 'RATE_LIMIT_MAX', 300, 1, 1_000_000),
      windowMs: integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400) * 1000,
      sensitiveMax: integer(env, 'RATE_LIMIT_SENSITIVE_MAX', 20, 1, 1_000_000),
    },
    redis: redisUrl === undefined ? undefined : { url: redisUrl, keyPrefix: matching(env, 'REDIS_KEY_PREFIX', /^[\w:.-]{1,64}$/, 'divilo:', 'letters, digits and _ : . - (at most 64)') },
    supportPhone: matching(env, 'SUPPORT_PHONE', /^\+?[\d ]{6,20}$/, '+34 910 000 000', 'a phone number such as +34 910 000 000'),
    // Not less than the law's: ten years for a customer's records, five for a refusal (retention.ts).
    retention: {
      customerYears: integer(env, 'RETENTION_CUSTOMER_YEARS', RETENTION_DEFAULTS.customerYears, RETENTION_DEFAULTS.customerYears, 30),
      refusedYears: integer(env, 'RETENTION_REFUSED_YEARS', RETENTION_DEFAULTS.refusedYears, RETENTION_DEFAULTS.refusedYears, 30),
    },
    legalBaseUrl: url(env, 'LEGAL_BASE_URL', `${publicUrl}/legal`)!,
    sessionIdleSeconds,
    onboardingTokenSeconds,
    onboardingSessionMaxSeconds,
    sessionWarningSeconds,
    identity,
    staff,
    storage: {
      region,
      bucket,
      endpoint: embeddedStorage ? url(env, 'S3_ENDPOINT', `${publicUrl}/s3`) : endpoints.s3,
      // May only lower the product's caps per kind (src/validation/documentLimits.ts), never raise them.
      maxDocumentBytes: integer(env, 'DOCUMENT_MAX_BYTES', LARGEST_DOCUMENT_BYTES, 1024, LARGEST_DOCUMENT_BYTES),
      embedded: embeddedStorage,
    },
    serverSecret,
    messaging: {
      sms: smsProvider(env, production, region, endpoints.sns),
      smtp: read(env, 'SMTP_URL')
        ? { url: url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:'])!, from: required(env, 'MAIL_FROM', 'SMTP_URL') }
        : undefined,
    },
    codes: {
      ttlSeconds: integer(env, 'CODE_TTL_SECONDS', 300, 60, 3600),
      resendSeconds: integer(env, 'CODE_RESEND_SECONDS', 30, 5, 600),
      maxAttempts: integer(env, 'CODE_MAX_ATTEMPTS', 5, 1, 5),
      lockSeconds: integer(env, 'CODE_LOCK_SECONDS', 900, 60, 86_400),
      clientMaxAttempts: integer(env, 'CODE_CLIENT_MAX_ATTEMPTS', 20, 5, 1000),
      personMaxAttempts: integer(env, 'CODE_PERSON_MAX_ATTEMPTS', 20, 5, 1000),
    },
    messageBudgets: {
      windowSeconds: integer(env, 'MESSAGE_BUDGET_WINDOW_SECONDS', 3600, 60, 86_400),
      // Customers' login and recovery SMS have a total of their own, which applicants' SMS cannot spend.
      sms: { ...budgetLimits(env, 'SMS', MESSAGE_BUDGET_DEFAULTS.sms), customersTotal: integer(env, 'SMS_BUDGET_CUSTOMERS_TOTAL', 2000, 1, 100_000_000) },
      email: budgetLimits(env, 'EMAIL', MESSAGE_BUDGET_DEFAULTS.email),
      smsSpread: smsSpread(env),
      unprovenEmail: unprovenEmail(env),
    },
    smsCountries: smsCountries(env),
    captcha: {
      provider: captchaProvider,
      siteKey: read(env, 'RECAPTCHA_SITE_KEY'),
      secret: read(env, 'RECAPTCHA_SECRET'),
      minScore: number(env, 'RECAPTCHA_MIN_SCORE', 0.5, 0, 1),
      altchaCost: integer(env, 'ALTCHA_COST', ALTCHA_DEFAULT_COST, 1, 2_000),
    },
    identityCheck: { provider: identityProvider, webhookSecret, faceDetection: oneOf(env, 'IDENTITY_FACE_DETECTION', ['true', 'false'] as const, 'true') === 'true' },
    seal: { p12File: sealFile, passphrase: sealFile === undefined ? undefined : required(env, 'SEAL_P12_PASSPHRASE', 'SEAL_P12_FILE') },
    contractTemplates,
    telemetry: telemetry(env, port),
  };
}

/** What the SPA is told at start (`GET /config.json`): nothing secret. */
export function toRuntimeConfig(config: Config): RuntimeConfig {
  const legal = (name: string) => `${config.legalBaseUrl}/${name}.pdf`;
  return {
    apiBaseUrl: '/api',
    mainAppUrl: config.mainAppUrl,
    supportPhone: config.supportPhone,
    legalLinks: {
      privacy: legal('privacy'),
      precontract: legal('pre-contract'),
      biometrics: legal('biometrics'),
      microbusinesses: legal('microbusinesses'),
      companies: legal('companies'),
      selfEmployed: legal('self-employed'),
    },
    identity: {
      region: config.identity.region,
      userPoolId: config.identity.userPoolId,
      clientId: config.identity.clientId,
      endpoint: config.identity.endpoint,
      identityPoolEndpoint: config.identity.identityPoolEndpoint,
      identityPoolId: config.identity.identityPoolId,
    },
    storage: { region: config.storage.region, bucket: config.storage.bucket, endpoint: config.storage.endpoint, maxDocumentBytes: config.storage.maxDocumentBytes },
    captcha:
      config.captcha.provider === 'altcha'
        ? { provider: 'altcha', challengeUrl: '/api/captcha/challenge' }
        : { provider: 'recaptcha', siteKey: config.captcha.siteKey },
    sessionWarningSeconds: config.sessionWarningSeconds,
    smsCountries: config.smsCountries,
  };
}
