import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { STAFF_ROLES, STAFF_TEMPORARY_PASSWORD_DAYS } from '../../server/staffRoles';
import { STAFF_PASSWORD_MIN_LENGTH } from '../../src/validation/constants';

/** The identity pool's developer provider: the server's COGNITO_DEVELOPER_PROVIDER default. */
export const DEVELOPER_PROVIDER = 'login.divilo.onboarding';
/** The attribute the onboarding keeps up to date (server/services/onboardingGate.ts), without its `custom:` prefix. */
const ONBOARDING_STATUS = 'onboarding_status';

export interface IdentityProps {
  /** The folder `npm run build:lambdas` writes (dist-lambdas/): the pre-token-generation trigger's bundle. */
  lambdaDir: string;
}

/**
 * Customers' user pool (usernames are ID documents, the product's password rule, the onboarding status the
 * pre-token-generation Lambda and the server read), its one app client, and the identity pool that gives each
 * application a storage identity for its own `private/<identity>/` documents. Beside them, the staff's pool (the
 * back office's sign-in: an authenticator app required, their roles as groups) and its app client.
 */
export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly staffPool: cognito.UserPool;
  readonly staffClient: cognito.UserPoolClient;
  readonly identityPool: cognito.CfnIdentityPool;
  readonly preTokenGeneration: lambda.Function;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);

    this.preTokenGeneration = new lambda.Function(this, 'PreTokenGeneration', {
      description: 'ERR-2809: refuses sign-in until the onboarding is complete (server/lambdas/preTokenGeneration.ts)',
      // The bundle targets Node 22 syntax and needs nothing of the runtime: the newest supported one.
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'preTokenGeneration.handler',
      code: lambda.Code.fromAsset(props.lambdaDir),
      memorySize: 128,
      timeout: Duration.seconds(5),
      // A log group the stack owns, with a retention: left to Lambda, its logs would be kept forever.
      logGroup: new logs.LogGroup(this, 'PreTokenGenerationLogs', { retention: logs.RetentionDays.ONE_YEAR }),
    });

    this.userPool = new cognito.UserPool(this, 'Customers', {
      // Accounts are made by the server once an applicant registers, never by the public.
      selfSignUpEnabled: false,
      signInAliases: { username: true },
      // The server upper-cases ID documents before every call: one spelling per account.
      signInCaseSensitive: true,
      // The product's rule (src/validation/predicates.ts): 8 to 99 characters, lower, upper, digit and symbol.
      passwordPolicy: { minLength: 8, requireLowercase: true, requireUppercase: true, requireDigits: true, requireSymbols: true, tempPasswordValidity: Duration.days(1) },
      standardAttributes: { phoneNumber: { required: false, mutable: true }, email: { required: false, mutable: true } },
      // Undeclared, Cognito refuses the attribute in AdminCreateUser and AdminUpdateUserAttributes.
      customAttributes: { [ONBOARDING_STATUS]: new cognito.StringAttribute({ minLen: 1, maxLen: 32, mutable: true }) },
      // The SMS codes and password recovery are the product's own: the pool sends nothing.
      accountRecovery: cognito.AccountRecovery.NONE,
      mfa: cognito.Mfa.OFF,
      featurePlan: cognito.FeaturePlan.LITE,
      lambdaTriggers: { preTokenGeneration: this.preTokenGeneration },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.client = this.userPool.addClient('Web', {
      // SRP from the browser (amazon-cognito-identity-js has no client secret); refresh is always allowed.
      authFlows: { userSrp: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      disableOAuth: true,
      enableTokenRevocation: true,
      idTokenValidity: Duration.minutes(60),
      accessTokenValidity: Duration.minutes(60),
      refreshTokenValidity: Duration.days(30),
      // The id token carries the phone (the SMS step) and the onboarding status (the server's own check).
      readAttributes: new cognito.ClientAttributes()
        .withStandardAttributes({ phoneNumber: true, phoneNumberVerified: true, email: true, emailVerified: true })
        .withCustomAttributes(ONBOARDING_STATUS),
      // Nothing: with a writable onboarding status a customer could approve their own application.
      writeAttributes: new cognito.ClientAttributes(),
    });

    this.staffPool = new cognito.UserPool(this, 'Staff', {
      // Members are made by `npm run admin -- staff add`, never by themselves.
      selfSignUpEnabled: false,
      signInAliases: { username: true },
      // Usernames are e-mails, lower-cased by the staff commands: any spelling signs in.
      signInCaseSensitive: false,
      // Stricter than the customers': a member's account opens every applicant's personal data. A temporary password
      // (`staff add`, `staff reset`) is handed over to be used at once: it expires after a day.
      passwordPolicy: {
        minLength: STAFF_PASSWORD_MIN_LENGTH,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(STAFF_TEMPORARY_PASSWORD_DAYS),
      },
      standardAttributes: { email: { required: true, mutable: true } },
      // Every sign-in asks for an authenticator app's code; the app is enrolled at the first one. No SMS or e-mail codes.
      mfa: cognito.Mfa.REQUIRED,
      mfaSecondFactor: { sms: false, otp: true, email: false },
      // A lost password or app is the bank's administrator's to handle (docs/back-office.md), never a self-service reset.
      accountRecovery: cognito.AccountRecovery.NONE,
      // Threat protection, which needs the Plus plan (billed per active member, a handful): high-risk sign-ins are
      // blocked, and each sign-in's risk is kept in the member's event history for the bank's audit.
      featurePlan: cognito.FeaturePlan.PLUS,
      standardThreatProtectionMode: cognito.StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    new cognito.CfnUserPoolRiskConfigurationAttachment(this, 'StaffRisks', {
      userPoolId: this.staffPool.userPoolId,
      clientId: 'ALL',
      // The code is asked for at every sign-in anyway: what is left to decide is to block. No notices: the pool sends no e-mail.
      accountTakeoverRiskConfiguration: {
        actions: {
          lowAction: { eventAction: 'NO_ACTION', notify: false },
          mediumAction: { eventAction: 'NO_ACTION', notify: false },
          highAction: { eventAction: 'BLOCK', notify: false },
        },
      },
      compromisedCredentialsRiskConfiguration: { actions: { eventAction: 'BLOCK' }, eventFilter: ['SIGN_IN', 'PASSWORD_CHANGE', 'SIGN_UP'] },
    });
    // The server's roles, each a group: the embedded pool declares the same ones. Kept with the pool, as the members'
    // roles are their memberships.
    for (const role of STAFF_ROLES) {
      new cognito.CfnUserPoolGroup(this, `Staff-${role}`, { userPoolId: this.staffPool.userPoolId, groupName: role, description: `Staff role: ${role}` }).applyRemovalPolicy(
        RemovalPolicy.RETAIN,
      );
    }

    this.staffClient = this.staffPool.addClient('BackOffice', {
      // SRP from the browser, as the customers'; refresh is always allowed.
      authFlows: { userSrp: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      disableOAuth: true,
      enableTokenRevocation: true,
      // A token outlives neither the idle limit of a back-office session (15 minutes) nor a working day.
      idTokenValidity: Duration.minutes(15),
      accessTokenValidity: Duration.minutes(15),
      refreshTokenValidity: Duration.hours(10),
      readAttributes: new cognito.ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }),
      // Nothing: a member changes nothing about their own account.
      writeAttributes: new cognito.ClientAttributes(),
    });

    this.identityPool = new cognito.CfnIdentityPool(this, 'Storage', {
      allowUnauthenticatedIdentities: false,
      developerProviderName: DEVELOPER_PROVIDER,
    });
    // Its identities name the applicants' areas of the bucket (private/<identity id>/): kept with the bucket.
    this.identityPool.applyRemovalPolicy(RemovalPolicy.RETAIN);
  }

  /** The role an applicant's storage identity takes: its own `private/<identity id>/` area of `bucket`, nothing else. */
  grantApplicantsTheirArea(bucket: s3.IBucket): iam.Role {
    const own = 'private/${cognito-identity.amazonaws.com:sub}';
    const role = new iam.Role(this, 'ApplicantRole', {
      description: "An applicant's storage identity: its own documents only",
      assumedBy: new iam.FederatedPrincipal(
        'cognito-identity.amazonaws.com',
        {
          StringEquals: { 'cognito-identity.amazonaws.com:aud': this.identityPool.ref },
          'ForAnyValue:StringLike': { 'cognito-identity.amazonaws.com:amr': 'authenticated' },
        },
        'sts:AssumeRoleWithWebIdentity',
      ),
      inlinePolicies: {
        OwnDocuments: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              actions: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
              resources: [bucket.arnForObjects(`${own}/*`)],
            }),
            new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': [`${own}/*`] } } }),
          ],
        }),
      },
    });
    new cognito.CfnIdentityPoolRoleAttachment(this, 'Roles', { identityPoolId: this.identityPool.ref, roles: { authenticated: role.roleArn } });
    return role;
  }
}
