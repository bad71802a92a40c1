import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';

/** The identity pool's developer provider: the server's COGNITO_DEVELOPER_PROVIDER default. */
export const DEVELOPER_PROVIDER = 'login.divilo.onboarding';
/** The attribute the onboarding keeps up to date (server/services/onboardingGate.ts), without its `custom:` prefix. */
const ONBOARDING_STATUS = 'onboarding_status';

export interface IdentityProps {
  /** The folder `npm run build:lambdas` writes (dist-lambdas/): the pre-authentication trigger's bundle. */
  lambdaDir: string;
}

/**
 * Customers' user pool (usernames are ID documents, the product's password rule, the onboarding status the
 * pre-authentication Lambda and the server read), its one app client, and the identity pool that gives each
 * application a storage identity for its own `private/<identity>/` documents.
 */
export class Identity extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly identityPool: cognito.CfnIdentityPool;
  readonly preAuthentication: lambda.Function;

  constructor(scope: Construct, id: string, props: IdentityProps) {
    super(scope, id);

    this.preAuthentication = new lambda.Function(this, 'PreAuthentication', {
      description: 'ERR-2809: refuses sign-in until the onboarding is complete (server/lambdas/preAuthentication.ts)',
      // The bundle targets Node 20 syntax and needs nothing of the runtime: the newest supported one.
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      handler: 'preAuthentication.handler',
      code: lambda.Code.fromAsset(props.lambdaDir),
      memorySize: 128,
      timeout: Duration.seconds(5),
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
      lambdaTriggers: { preAuthentication: this.preAuthentication },
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

    this.identityPool = new cognito.CfnIdentityPool(this, 'Storage', {
      allowUnauthenticatedIdentities: false,
      developerProviderName: DEVELOPER_PROVIDER,
    });
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
