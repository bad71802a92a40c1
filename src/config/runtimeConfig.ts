/**
 * What the server tells the SPA at start (`GET /config.json`). The SPA code is the same for the embedded
 * defaults and for production: only these values change.
 */
export interface RuntimeConfig {
  /** Base URL of the product API ({host} in the specification), e.g. `/api`. */
  apiBaseUrl: string;
  /** Where a signed-in customer is sent after login. */
  mainAppUrl: string;
  /** Support phone shown in the help panel, in international format. */
  supportPhone: string;
  /** Legal documents (privacy, pre-contract, ...), by name. */
  legalLinks: Record<'privacy' | 'precontract' | 'biometrics' | 'microbusinesses' | 'companies' | 'selfEmployed', string>;
  identity: {
    region: string;
    userPoolId: string;
    clientId: string;
    /** The user pool's endpoint (cognito-idp) when not AWS itself (the embedded one, or a configured one). */
    endpoint?: string;
    /** The identity pool's endpoint (cognito-identity) when not AWS itself; often the same as `endpoint`. */
    identityPoolEndpoint?: string;
    identityPoolId: string;
  };
  storage: {
    region: string;
    bucket: string;
    /** The storage endpoint when not AWS itself (the embedded one, or a configured one). */
    endpoint?: string;
    /** The largest document the server accepts; the upload screens refuse larger files before sending. */
    maxDocumentBytes: number;
  };
  captcha: { provider: 'altcha' | 'recaptcha'; siteKey?: string; challengeUrl?: string };
  /** Seconds before a session token's expiry at which the app warns and offers to continue. */
  sessionWarningSeconds: number;
  /** The countries whose mobile numbers the bank sends SMS to (ISO codes): the phone step offers only these. */
  smsCountries: string[];
}
