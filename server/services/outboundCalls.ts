// How long the server waits for the services it calls while a person waits for the answer: the identity
// service (Cognito's user and identity pools), the document storage (S3), the identity service's signing keys
// and the captcha's verification. Every AWS SDK client of the server and of `npm run admin` is made here, so
// the limits are written once (docs/server.md, "When a dependency goes away").

/** A TCP connection to the service, opened within this (the SDK's default waits as long as the system does). */
export const CONNECT_TIMEOUT_MS = 2000;
/**
 * One attempt: its answer's headers within this, and no pause longer than this while a body streams (the SDK's
 * default is to wait without end). Cognito's admin calls and S3's HEAD and GET answer in well under a second.
 */
export const ATTEMPT_TIMEOUT_MS = 4000;
/** The first attempt and one more (the SDK's default is three, each of them without a time limit). */
export const MAX_ATTEMPTS = 2;
/** A plain fetch (the signing keys, the captcha's verification): one attempt within this. */
export const FETCH_TIMEOUT_MS = 5000;

/**
 * The settings every AWS SDK client of the server takes: a connection and an attempt time limit that fail the
 * attempt with `TimeoutError`, and the SDK's standard retry mode (exponential backoff with jitter, only errors it
 * knows to be transient) bounded to MAX_ATTEMPTS. Worst case for a person: two attempts of ATTEMPT_TIMEOUT_MS and
 * the backoff between them, under ten seconds, then `503 SERVICE_UNAVAILABLE` (server/plugins/errors.ts).
 */
export function awsCallLimits() {
  return {
    maxAttempts: MAX_ATTEMPTS,
    retryMode: 'standard',
    requestHandler: {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      requestTimeout: ATTEMPT_TIMEOUT_MS,
      socketTimeout: ATTEMPT_TIMEOUT_MS,
      // Without it the SDK only warns when requestTimeout passes, and goes on waiting.
      throwOnRequestTimeout: true,
    },
  } as const;
}

/** An AWS SDK client of `Client` with `config` and the server's call limits. */
export function awsClient<Options extends object, Client>(Client: new (...options: [] | [Options]) => Client, config: NoInfer<Options>): Client {
  return new Client({ ...config, ...awsCallLimits() });
}

/** The signal of one plain fetch to a service: aborted (TimeoutError) after FETCH_TIMEOUT_MS. */
export const fetchDeadline = () => AbortSignal.timeout(FETCH_TIMEOUT_MS);
