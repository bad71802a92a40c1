// Errors in the shape AWS JSON services answer, so both SDKs turn them into their usual exceptions.

export class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly statusCode = 400,
  ) {
    super(message);
    this.name = type;
  }
}

/** The one answer for a wrong password, an unknown user and a locked account: no enumeration. */
const INCORRECT_CREDENTIALS = 'Incorrect username or password.';

export const errors = {
  serialization: () => new AwsError('SerializationException', 'Start of structure or map found where not expected.'),
  unknownOperation: () => new AwsError('UnknownOperationException', 'The operation you requested is not recognized.'),
  invalidParameter: (message: string) => new AwsError('InvalidParameterException', message),
  notAuthorized: (message = INCORRECT_CREDENTIALS) => new AwsError('NotAuthorizedException', message),
  /**
   * Cognito's words for a locked-out sign-in. Here it means this client is locked out of the name (its own failures,
   * or the name's while it failed at it); unknown names count failures too, so it tells no one a name exists.
   */
  attemptsExceeded: () => new AwsError('NotAuthorizedException', 'Password attempts exceeded'),
  userNotFound: () => new AwsError('UserNotFoundException', 'User does not exist.'),
  usernameExists: () => new AwsError('UsernameExistsException', 'User account already exists'),
  resourceNotFound: (message: string) => new AwsError('ResourceNotFoundException', message),
  invalidPassword: (message: string) => new AwsError('InvalidPasswordException', message),
  temporaryPasswordExpired: () => new AwsError('NotAuthorizedException', 'Temporary password has expired and must be reset by an administrator.'),
  expiredSession: () => new AwsError('NotAuthorizedException', 'Invalid session for the user, session is expired.'),
  preTokenGeneration: (code: string) => new AwsError('UserLambdaValidationException', `PreTokenGeneration failed with error ${code}.`),
  codeMismatch: () => new AwsError('CodeMismatchException', 'Invalid code received for user'),
  /** A TOTP code of a step already used: refused as Cognito does, so one observed code cannot sign in twice. */
  codeUsed: () => new AwsError('ExpiredCodeException', 'Your software token has already been used once.'),
  softwareTokenMismatch: () => new AwsError('EnableSoftwareTokenMFAException', 'Code mismatch'),
  softwareTokenNotEnabled: () => new AwsError('SoftwareTokenMFANotFoundException', 'Software Token MFA is not enabled for the user pool.'),
  groupNotFound: () => new AwsError('ResourceNotFoundException', 'Group not found.'),
  internal: () => new AwsError('InternalErrorException', 'An internal error occurred.', 500),
};
