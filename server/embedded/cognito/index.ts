// The Cognito-compatible identity endpoint used when no cloud account is configured.
export { embeddedCognito, CognitoTriggers, type EmbeddedCognitoOptions } from './plugin';
export { lookupTemporaryCredentials } from './identityPool';
export { endSignInLockout } from './lockout';
