// The Cognito-compatible identity endpoint used when no cloud account is configured.
export { embeddedCognito, CognitoTriggers, type EmbeddedCognitoOptions } from './plugin';
export { lookupTemporaryCredentials, type TemporaryCredentials } from './identityPool';
export type { PasswordPolicy, PreAuthenticationHook, PreAuthenticationUser } from './context';
export type { AwsCredentials } from './sigv4';
export type { TokenLifetimes } from './tokens';
export type { IdentityTables } from './tables';
