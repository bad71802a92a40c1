import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, Token } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { serverAwsCalls } from '../../__tests__/server/awsCalls';
import { loadConfig } from '../../server/config';
import { SERVER_AWS_CALLS, serverPolicyDocument } from '../../server/awsPermissions';
import { S3_CORS_EXPOSED_HEADERS } from '../../server/embedded/s3';
import { CLIENT_VERIFICATION_CODE, ONBOARDING_STATUS_ATTRIBUTE } from '../../server/services/onboardingGate';
import { STAFF_ROLES } from '../../server/staffRoles';
import { EXEC_CHANNEL_ACTIONS, EXEC_TRANSCRIPT_ACTIONS } from '../lib/execSessions';
import { DEVELOPER_PROVIDER } from '../lib/identity';
import { LOG_SIGNALS } from '../../server/telemetry/logSignals';
import { COLLECTOR_ACTIONS, COLLECTOR_ENDPOINT, COLLECTOR_IMAGE } from '../lib/telemetry';
import { CONTRACT_TEMPLATES_IN_IMAGE, DiviloStack, SERVER_LOG_STREAM_PREFIX } from '../lib/stack';
import { EXPOSED_HEADERS, REPLACED_VERSIONS_KEPT_DAYS, TRAIL_ARCHIVE_DAYS, TRAIL_KEEP_DAYS } from '../lib/storage';

const root = path.resolve(__dirname, '../..');
const lambdaDir = path.join(root, 'dist-lambdas');

let stack: DiviloStack;
let template: Template;
type Resources = Record<string, { Type: string; Properties: Record<string, unknown>; DeletionPolicy?: string; UpdateReplacePolicy?: string }>;
let resources: Resources;

beforeAll(() => {
  // The Lambda the pool runs is the one `npm run build:lambdas` bundles, built now.
  execFileSync('npm', ['run', '--silent', 'build:lambdas'], { cwd: root, stdio: 'pipe' });
  const app = new App();
  stack = new DiviloStack(app, 'Test', { lambdaDir });
  template = Template.fromStack(stack);
  resources = template.toJSON().Resources as Resources;
});

const logicalId = (type: string, pathPart: string) => {
  const ids = Object.keys(resources).filter((id) => resources[id].Type === type && id.includes(pathPart));
  expect(ids).toHaveLength(1);
  return ids[0];
};

/**
 * The template's value with references written as names: Fn::Join joined, Ref and Fn::GetAtt (`<id>.<attribute>`)
 * from `names`, Fn::If by `condition:<name>` there ('true' or 'false').
 */
function resolve(value: unknown, names: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(item, names));
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('Ref' in object) return names[object.Ref as string] ?? `<${String(object.Ref)}>`;
    if ('Fn::If' in object) {
      const [condition, whenTrue, whenFalse] = object['Fn::If'] as [string, unknown, unknown];
      const holds = names[`condition:${condition}`];
      return holds === undefined ? `<condition:${condition}>` : resolve(holds === 'true' ? whenTrue : whenFalse, names);
    }
    if ('Fn::GetAtt' in object) {
      const name = (object['Fn::GetAtt'] as string[]).join('.');
      return names[name] ?? `<${name}>`;
    }
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map((part) => resolve(part, names)).join(separator);
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolve(item, names)]));
  }
  return value;
}

describe('the deployment', () => {
  it('synthesizes with no account, region or lookup', () => {
    expect(Token.isUnresolved(stack.account)).toBe(true);
    expect(Token.isUnresolved(stack.region)).toBe(true);
    expect(JSON.stringify(template.toJSON())).not.toContain('Fn::ImportValue');
  });

  it("gives the server's role exactly the actions of the server's calls, on this deployment's resources", () => {
    const names = {
      'AWS::Partition': 'aws',
      'AWS::Region': 'eu-west-1',
      'AWS::AccountId': '123456789012',
      [logicalId('AWS::Cognito::UserPool', 'Customers')]: 'eu-west-1_Pool',
      [logicalId('AWS::Cognito::UserPool', 'Staff')]: 'eu-west-1_Staff',
      [logicalId('AWS::Cognito::IdentityPool', 'Storage')]: 'eu-west-1:pool',
      [logicalId('AWS::S3::Bucket', 'Documents')]: 'documents',
    };
    const role = resources[logicalId('AWS::IAM::Role', 'ServerRole')].Properties as { Policies: { PolicyDocument: unknown }[]; ManagedPolicyArns?: unknown };
    expect(role.ManagedPolicyArns).toBeUndefined();
    expect(role.Policies).toHaveLength(1);
    // CloudFormation takes a lone action as a string or a list: CDK writes the string.
    const deployed = resolve(role.Policies[0].PolicyDocument, names) as { Statement: { Action: string | string[] }[] };
    for (const statement of deployed.Statement) statement.Action = ([] as string[]).concat(statement.Action);
    expect(deployed).toEqual(
      serverPolicyDocument({ partition: 'aws', region: 'eu-west-1', account: '123456789012', userPoolId: 'eu-west-1_Pool', staffUserPoolId: 'eu-west-1_Staff', identityPoolId: 'eu-west-1:pool', bucket: 'documents' }),
    );

    // And from the code itself: the actions of every call the server makes, no more, no fewer.
    const byCall = new Map(SERVER_AWS_CALLS.map((entry) => [entry.call, entry]));
    const needed = new Set(serverAwsCalls(root).flatMap((found) => byCall.get(found.call)?.grants.map((grant) => grant.action) ?? [`unlisted ${found.call}`]));
    const granted = new Set(deployed.Statement.flatMap((statement) => statement.Action));
    expect([...granted].sort()).toEqual([...needed].sort());

    // Evidence only created (If-None-Match: *), never replaced; deleted only with an erased application (Object Lock
    // keeps what the bank relied on); nothing deleted elsewhere.
    const onObjects = (deployed.Statement as { Action: string[]; Resource: string; Condition?: unknown }[]).filter((statement) => statement.Resource.startsWith('arn:aws:s3:::documents/'));
    expect(onObjects).toEqual([
      expect.objectContaining({ Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::documents/*' }),
      expect.objectContaining({ Action: ['s3:DeleteObject'], Resource: 'arn:aws:s3:::documents/private/*' }),
      expect.objectContaining({ Action: ['s3:DeleteObject', 's3:PutObjectRetention'], Resource: 'arn:aws:s3:::documents/evidence/*' }),
      expect.objectContaining({ Action: ['s3:PutObject'], Resource: 'arn:aws:s3:::documents/evidence/*', Condition: { StringEquals: { 's3:if-none-match': '*' } } }),
    ]);
    expect(onObjects.filter((statement) => statement.Condition === undefined).flatMap((statement) => statement.Action)).toEqual(['s3:GetObject', 's3:DeleteObject', 's3:DeleteObject', 's3:PutObjectRetention']);

    // Attached beside it, two policies only: ECS Exec's channel, which names none of the product's services, and the
    // telemetry collector's (the task's containers share one role), exactly its actions.
    const roleId = logicalId('AWS::IAM::Role', 'ServerRole');
    const attached = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.Roles).includes(roleId));
    expect(attached.map(([id]) => id).sort()).toEqual([logicalId('AWS::IAM::Policy', 'ExecSessionsTaskPolicy'), logicalId('AWS::IAM::Policy', 'TelemetryExport')].sort());
    const collector = resources[logicalId('AWS::IAM::Policy', 'TelemetryExport')];
    expect(collector.Properties.PolicyDocument).toEqual({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: COLLECTOR_ACTIONS, Resource: '*' }] });
    expect(COLLECTOR_ACTIONS.filter((action) => granted.has(action))).toEqual([]);
    const exec = (resources[logicalId('AWS::IAM::Policy', 'ExecSessionsTaskPolicy')].Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement.flatMap((statement) => ([] as string[]).concat(statement.Action));
    expect(exec.filter((action) => !/^(ssmmessages|logs|kms):/.test(action))).toEqual([]);
    expect(exec.filter((action) => granted.has(action))).toEqual([]);
  });

  it('opens ECS Exec sessions into the servers, each encrypted with a key of its own and recorded to a kept, encrypted log group', () => {
    template.hasResourceProperties('AWS::ECS::Service', { EnableExecuteCommand: true });
    const key = logicalId('AWS::KMS::Key', 'ExecSessions');
    const transcripts = logicalId('AWS::Logs::LogGroup', 'ExecSessions');
    template.hasResourceProperties('AWS::ECS::Cluster', {
      Configuration: {
        ExecuteCommandConfiguration: {
          KmsKeyId: { 'Fn::GetAtt': [key, 'Arn'] },
          // OVERRIDE: every session is recorded, whatever the client asks for.
          Logging: 'OVERRIDE',
          LogConfiguration: { CloudWatchLogGroupName: { Ref: transcripts }, CloudWatchEncryptionEnabled: true },
        },
      },
    });
    expect(resources[transcripts]).toMatchObject({ DeletionPolicy: 'Retain', Properties: { RetentionInDays: 365, KmsKeyId: { 'Fn::GetAtt': [key, 'Arn'] } } });
    expect(resources[key]).toMatchObject({ DeletionPolicy: 'Retain', Properties: { EnableKeyRotation: true } });
    // CloudWatch Logs may use the key for this account's log groups (else the group cannot be written).
    const keyPolicy = JSON.stringify(resources[key].Properties.KeyPolicy);
    expect(keyPolicy).toContain('logs.');
    expect(keyPolicy).toContain('kms:EncryptionContext:aws:logs:arn');

    // The task role's exec policy: the channels, the transcript group and the key, exactly.
    const policy = resources[logicalId('AWS::IAM::Policy', 'ExecSessionsTaskPolicy')].Properties.PolicyDocument as { Statement: { Sid: string; Action: unknown; Resource: unknown }[] };
    expect(policy.Statement.map(({ Sid, Action, Resource }) => ({ Sid, Action, Resource }))).toEqual([
      { Sid: 'Channels', Action: EXEC_CHANNEL_ACTIONS, Resource: '*' },
      { Sid: 'TranscriptEncryption', Action: 'logs:DescribeLogGroups', Resource: '*' },
      { Sid: 'Transcripts', Action: EXEC_TRANSCRIPT_ACTIONS, Resource: { 'Fn::GetAtt': [transcripts, 'Arn'] } },
      { Sid: 'SessionKey', Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Resource: { 'Fn::GetAtt': [key, 'Arn'] } },
    ]);
  });

  it('outputs what a one-off admin task and an exec session need', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    const task = logicalId('AWS::ECS::TaskDefinition', 'Server');
    expect(outputs).toMatchObject({
      ServerCluster: { Value: { Ref: logicalId('AWS::ECS::Cluster', 'Cluster') } },
      ServerService: { Value: { 'Fn::GetAtt': [logicalId('AWS::ECS::Service', 'Server'), 'Name'] } },
      ServerTaskDefinition: { Value: { Ref: task } },
      ServerContainer: { Value: 'web' },
      ServerSecurityGroupId: { Value: { 'Fn::GetAtt': [logicalId('AWS::EC2::SecurityGroup', 'ServerSecurityGroup'), 'GroupId'] } },
      ServerLogGroup: { Value: { Ref: logicalId('AWS::Logs::LogGroup', 'ServerLogs') } },
      ExecSessionLogGroup: { Value: { Ref: logicalId('AWS::Logs::LogGroup', 'ExecSessions') } },
    });
    // The family the task definition is registered under, and the subnets the service runs its tasks in.
    expect(outputs.ServerTaskFamily.Value).toEqual(resources[task].Properties.Family);
    const network = (resources[logicalId('AWS::ECS::Service', 'Server')].Properties.NetworkConfiguration as { AwsvpcConfiguration: { Subnets: unknown[]; SecurityGroups: unknown[] } }).AwsvpcConfiguration;
    expect(outputs.AppSubnets.Value).toEqual({ 'Fn::Join': [',', network.Subnets] });
    expect(network.SecurityGroups).toEqual([outputs.ServerSecurityGroupId.Value]);
    const [container] = (resources[task].Properties as { ContainerDefinitions: { Name: string; LogConfiguration: { Options: Record<string, unknown> } }[] }).ContainerDefinitions;
    expect(container.Name).toBe('web');
    expect(container.LogConfiguration.Options).toMatchObject({ 'awslogs-group': { Ref: logicalId('AWS::Logs::LogGroup', 'ServerLogs') }, 'awslogs-stream-prefix': SERVER_LOG_STREAM_PREFIX });

    // Every output deploy/admin.sh reads is one the stack makes, and the script's stream prefix is the servers'.
    const adminScript = readFileSync(path.join(root, 'deploy/admin.sh'), 'utf8');
    const read = [...adminScript.matchAll(/\$\(output (\w+)\)/g)].map((match) => match[1]);
    expect(read.length).toBeGreaterThan(5);
    expect(read.filter((name) => !(name in outputs))).toEqual([]);
    expect(adminScript).toContain(`log_stream_prefix=${SERVER_LOG_STREAM_PREFIX}\n`);
  });

  it('makes the user pool the product needs: ID documents as usernames, its password rule, the onboarding status, the Lambda', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: Match.absent(),
      AliasAttributes: Match.absent(),
      UsernameConfiguration: { CaseSensitive: true },
      Policies: { PasswordPolicy: { MinimumLength: 8, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true } },
      Schema: Match.arrayWith([{ Name: ONBOARDING_STATUS_ATTRIBUTE.replace('custom:', ''), AttributeDataType: 'String', Mutable: true, StringAttributeConstraints: { MinLength: '1', MaxLength: '32' } }]),
      LambdaConfig: { PreTokenGeneration: { 'Fn::GetAtt': [logicalId('AWS::Lambda::Function', 'PreTokenGeneration'), 'Arn'] } },
      DeletionProtection: 'ACTIVE',
    });
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'preTokenGeneration.handler', Runtime: Match.stringLikeRegexp('^nodejs') });
    // The bundle the function is made from refuses with ERR-2809.
    expect(readFileSync(path.join(lambdaDir, 'preTokenGeneration.js'), 'utf8')).toContain(CLIENT_VERIFICATION_CODE);
  });

  it("makes the customers' app client: no secret, SRP and refresh, no user-existence errors, reads the phone and status, writes nothing", () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 2);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      ReadAttributes: Match.arrayWith([ONBOARDING_STATUS_ATTRIBUTE, 'phone_number']),
      // A writable status would let a customer approve their own application.
      WriteAttributes: [],
    });
  });

  it("makes the staff's pool: no sign-up, an authenticator app required (no SMS), 12 characters, temporary passwords of a day, no recovery, threat protection, kept", () => {
    const pool = resources[logicalId('AWS::Cognito::UserPool', 'Staff')];
    expect(pool).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(pool.Properties).toMatchObject({
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameConfiguration: { CaseSensitive: false },
      MfaConfiguration: 'ON',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: { PasswordPolicy: { MinimumLength: 12, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true, TemporaryPasswordValidityDays: 1 } },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'admin_only', Priority: 1 }] },
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      DeletionProtection: 'ACTIVE',
    });
    expect(pool.Properties.SmsConfiguration).toBeUndefined();
    expect(pool.Properties.LambdaConfig).toBeUndefined();
    const staffPool = { Ref: logicalId('AWS::Cognito::UserPool', 'Staff') };
    template.hasResourceProperties('AWS::Cognito::UserPoolRiskConfigurationAttachment', {
      UserPoolId: staffPool,
      ClientId: 'ALL',
      AccountTakeoverRiskConfiguration: { Actions: { HighAction: { EventAction: 'BLOCK', Notify: false } } },
      CompromisedCredentialsRiskConfiguration: { Actions: { EventAction: 'BLOCK' } },
    });

    // The server's roles, each a group of the pool.
    const groups = Object.values(resources).filter((resource) => resource.Type === 'AWS::Cognito::UserPoolGroup');
    expect(groups.map((group) => group.Properties)).toEqual(STAFF_ROLES.map((role) => expect.objectContaining({ GroupName: role, UserPoolId: staffPool })));
  });

  it("makes the staff's app client: no secret, SRP and refresh, tokens of 15 minutes renewed for 10 hours, writes nothing", () => {
    const client = resources[logicalId('AWS::Cognito::UserPoolClient', 'BackOffice')].Properties;
    expect(client).toMatchObject({
      UserPoolId: { Ref: logicalId('AWS::Cognito::UserPool', 'Staff') },
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      IdTokenValidity: 15,
      AccessTokenValidity: 15,
      RefreshTokenValidity: 600,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'minutes' },
      WriteAttributes: [],
    });
    expect(client.AllowedOAuthFlowsUserPoolClient).toBe(false);
  });

  it('makes the identity pool with the developer provider, and an applicant role on its own private area only', () => {
    template.hasResourceProperties('AWS::Cognito::IdentityPool', { AllowUnauthenticatedIdentities: false, DeveloperProviderName: DEVELOPER_PROVIDER });
    const poolId = logicalId('AWS::Cognito::IdentityPool', 'Storage');
    const roleId = logicalId('AWS::IAM::Role', 'ApplicantRole');
    template.hasResourceProperties('AWS::Cognito::IdentityPoolRoleAttachment', { IdentityPoolId: { Ref: poolId }, Roles: { authenticated: { 'Fn::GetAtt': [roleId, 'Arn'] } } });
    const bucketId = logicalId('AWS::S3::Bucket', 'Documents');
    const role = resolve(resources[roleId].Properties, { [`${bucketId}.Arn`]: 'arn:aws:s3:::documents', [poolId]: 'POOL' }) as {
      AssumeRolePolicyDocument: { Statement: { Condition: unknown }[] };
      Policies: { PolicyDocument: { Statement: unknown[] } }[];
    };
    expect(role.AssumeRolePolicyDocument.Statement[0].Condition).toEqual({
      StringEquals: { 'cognito-identity.amazonaws.com:aud': 'POOL' },
      'ForAnyValue:StringLike': { 'cognito-identity.amazonaws.com:amr': 'authenticated' },
    });
    const own = 'private/${cognito-identity.amazonaws.com:sub}';
    expect(role.Policies.flatMap((policy) => policy.PolicyDocument.Statement)).toEqual([
      {
        Effect: 'Allow',
        Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload', 's3:ListMultipartUploadParts'],
        Resource: `arn:aws:s3:::documents/${own}/*`,
      },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: 'arn:aws:s3:::documents', Condition: { StringLike: { 's3:prefix': [`${own}/*`] } } },
    ]);
  });

  it('makes the bucket private, encrypted, open to uploads from the app only, and removes abandoned uploads after a day', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: [{ Ref: 'PublicUrl' }], AllowedMethods: Match.arrayWith(['PUT', 'POST', 'DELETE']), ExposedHeaders: Match.arrayWith(['etag']) })] },
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' })]) },
    });
    // Browsers read on AWS what they read on the embedded endpoint.
    expect(EXPOSED_HEADERS).toEqual(S3_CORS_EXPOSED_HEADERS);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('versions the bucket and makes it with Object Lock (no default retention); old versions of both areas expire', () => {
    const bucket = resources[logicalId('AWS::S3::Bucket', 'Documents')];
    expect(bucket.Properties).toMatchObject({ VersioningConfiguration: { Status: 'Enabled' }, ObjectLockEnabled: true });
    // Retention is decided per object when it is written, not for the whole bucket.
    expect(bucket.Properties.ObjectLockConfiguration).toBeUndefined();
    const rules = (bucket.Properties.LifecycleConfiguration as { Rules: Record<string, unknown>[] }).Rules;
    for (const [Id, Prefix] of [['applicant-areas-old-versions', 'private/'], ['evidence-erased-versions', 'evidence/']]) {
      expect(rules).toContainEqual({ Id, Prefix, NoncurrentVersionExpiration: { NoncurrentDays: REPLACED_VERSIONS_KEPT_DAYS }, ExpiredObjectDeleteMarker: true, Status: 'Enabled' });
    }
    // No rule expires a current object: only what a delete or an overwrite left behind goes.
    expect(rules.filter((rule) => rule.ExpirationInDays || rule.ExpirationDate)).toEqual([]);
  });

  it("records every write and delete in the documents bucket (CloudTrail data events), an applicant's included", () => {
    const bucketId = logicalId('AWS::S3::Bucket', 'Documents');
    template.hasResourceProperties('AWS::CloudTrail::Trail', {
      IsLogging: true,
      EnableLogFileValidation: true,
      EventSelectors: [
        {
          ReadWriteType: 'WriteOnly',
          IncludeManagementEvents: false,
          DataResources: [{ Type: 'AWS::S3::Object', Values: [{ 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/']] }] }],
        },
      ],
    });
  });

  it('runs N server containers behind a load balancer that checks /health, over HTTPS only', () => {
    template.hasResourceProperties('AWS::ECS::Service', { LaunchType: 'FARGATE', DesiredCount: { Ref: 'ServerCount' } });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::TargetGroup', { HealthCheckPath: '/health', Matcher: { HttpCode: '200' } });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Protocol: 'HTTPS', Certificates: [{ CertificateArn: { Ref: 'CertificateArn' } }] });
    template.hasResourceProperties('AWS::ElasticLoadBalancingV2::Listener', { Protocol: 'HTTP', DefaultActions: [Match.objectLike({ Type: 'redirect' })] });
    template.hasResourceProperties('AWS::ECS::TaskDefinition', { TaskRoleArn: { 'Fn::GetAtt': [logicalId('AWS::IAM::Role', 'ServerRole'), 'Arn'] } });
  });

  it("leaves the server its shutdown grace after SIGTERM before ECS kills the container", () => {
    const task = resources[logicalId('AWS::ECS::TaskDefinition', 'Server')].Properties as {
      ContainerDefinitions: { StopTimeout?: number; Environment: { Name: string; Value: unknown }[] }[];
    };
    const [container] = task.ContainerDefinitions;
    const graceSetting = container.Environment.find(({ Name }) => Name === 'SHUTDOWN_GRACE_SECONDS');
    const graceSeconds = loadConfig(graceSetting ? { SHUTDOWN_GRACE_SECONDS: String(graceSetting.Value) } : {}).shutdownGraceMs / 1000;
    expect(container.StopTimeout).toBe(30);
    expect(graceSeconds).toBeLessThan(container.StopTimeout!);
  });

  it('keeps PostgreSQL and Redis private, encrypted and in two zones', () => {
    template.hasResourceProperties('AWS::RDS::DBInstance', { Engine: 'postgres', MultiAZ: true, StorageEncrypted: true, DeletionProtection: true, PubliclyAccessible: false });
    template.hasResourceProperties('AWS::RDS::DBParameterGroup', { Parameters: { 'rds.force_ssl': '1' } });
    template.hasResourceProperties('AWS::ElastiCache::ReplicationGroup', { TransitEncryptionEnabled: true, AtRestEncryptionEnabled: true, MultiAZEnabled: true, NumCacheClusters: 2 });
  });

  it("gives the container a configuration the server accepts in production, its secrets from Secrets Manager", () => {
    const task = resources[logicalId('AWS::ECS::TaskDefinition', 'Server')].Properties as {
      ContainerDefinitions: { Environment: { Name: string; Value: unknown }[]; Secrets: { Name: string; ValueFrom: unknown }[] }[];
    };
    const container = task.ContainerDefinitions.find((definition) => (definition as { Name?: string }).Name === 'web')!;
    const secretNames = container.Secrets.map((secret) => secret.Name).sort();
    expect(secretNames).toEqual(['IDENTITY_WEBHOOK_SECRET', 'PGPASSWORD', 'PGUSER', 'REDIS_AUTH_TOKEN', 'SEAL_P12_BASE64', 'SEAL_P12_PASSPHRASE', 'SERVER_SECRET', 'SMTP_URL']);
    // Nothing secret in the plain environment.
    expect(JSON.stringify(container.Environment)).not.toMatch(/PASSWORD|SECRET_KEY|API_KEY|AUTH_TOKEN/);

    // The environment as the container starts with it (docker/start.sh turns the seal and Redis token into
    // SEAL_P12_FILE and REDIS_URL), with references given plausible values: the server must accept it.
    const plausible: Record<string, string> = {
      'AWS::Region': 'eu-west-1',
      PublicUrl: 'https://alta.bank.es',
      MailFrom: 'no-reply@bank.es',
      SmsSender: 'Bank',
      // The parameters' defaults: no origination number, no price cap.
      SmsOriginationNumber: '',
      SmsMaxPriceUsd: '',
      IdentityProvider: 'manual',
      [logicalId('AWS::Cognito::UserPool', 'Customers')]: 'eu-west-1_AbC123',
      [logicalId('AWS::Cognito::UserPoolClient', 'Web')]: '4hj2k5l6m7n8p9q0r1s2t3u4v5',
      [logicalId('AWS::Cognito::UserPool', 'Staff')]: 'eu-west-1_Staff9',
      [logicalId('AWS::Cognito::UserPoolClient', 'BackOffice')]: '7ab8cd9ef0gh1ij2kl3mn4op5q',
      [logicalId('AWS::Cognito::IdentityPool', 'Storage')]: 'eu-west-1:0d6b3c2a-1e4f-4a5b-9c8d-7e6f5a4b3c2d',
      [logicalId('AWS::S3::Bucket', 'Documents')]: 'divilo-documents-abc',
    };
    const database = logicalId('AWS::RDS::DBInstance', 'Database');
    const redis = logicalId('AWS::ElastiCache::ReplicationGroup', 'Redis');
    plausible[`${database}.Endpoint.Address`] = 'db.internal';
    plausible[`${database}.Endpoint.Port`] = '5432';
    plausible[`${redis}.PrimaryEndPoint.Address`] = 'redis.internal';
    plausible[`${redis}.PrimaryEndPoint.Port`] = '6379';
    plausible['condition:OwnDatabase'] = 'true';
    const env = Object.fromEntries(container.Environment.map(({ Name, Value }) => [Name, String(resolve(Value, plausible))]));
    expect(Object.values(env).join(' ')).not.toContain('<');
    const started = {
      ...env,
      SERVER_SECRET: 'A'.repeat(64),
      SMTP_URL: 'smtps://user:pw@email-smtp.eu-west-1.amazonaws.com:465',
      SEAL_P12_FILE: __filename,
      SEAL_P12_PASSPHRASE: 'pass',
      REDIS_URL: `rediss://:token@${env.REDIS_HOST}:${env.REDIS_PORT}`,
      IDENTITY_WEBHOOK_SECRET: 'W'.repeat(64),
      // The image holds the bank's templates there; here the sample stands in for them.
      CONTRACT_TEMPLATES_DIR: path.join(__dirname, '..', '..', 'server', 'data', 'contract-sample'),
    };
    const config = loadConfig(started);
    expect(env.CONTRACT_TEMPLATES_DIR).toBe(CONTRACT_TEMPLATES_IN_IMAGE);
    expect(env.IDENTITY_PROVIDER).toBe('manual');
    // The image puts the bank's templates where the container looks for them.
    expect(readFileSync(path.join(root, 'Dockerfile'), 'utf8')).toContain(`COPY --from=contract-templates --chown=root:root . ${CONTRACT_TEMPLATES_IN_IMAGE}`);
    expect(config).toMatchObject({ production: true, trustProxy: 1, identity: { embedded: false, developerProvider: DEVELOPER_PROVIDER }, storage: { embedded: false } });
    expect(config.staff).toMatchObject({ userPoolId: 'eu-west-1_Staff9', clientId: '7ab8cd9ef0gh1ij2kl3mn4op5q' });
    expect(config.databaseUrl).toMatch(/^postgres:\/\/db\.internal:5432\/divilo\?sslmode=verify-full$/);
    // SMS through SNS in the stack's region, with the role's credentials (no key in the environment).
    expect(config.messaging.sms).toEqual({ provider: 'sns', region: 'eu-west-1', endpoint: undefined, senderId: 'Bank', originationNumber: undefined, maxPriceUsd: undefined });

    // Pointed at a database restored beside the stack's (the DatabaseEndpoint parameter), the servers use that one.
    const restored = { ...plausible, DatabaseEndpoint: 'divilo-pitr.abc123.eu-west-1.rds.amazonaws.com:5432', 'condition:OwnDatabase': 'false' };
    const url = resolve(container.Environment.find(({ Name }) => Name === 'DATABASE_URL')!.Value, restored);
    expect(loadConfig({ ...started, DATABASE_URL: String(url) }).databaseUrl).toBe(
      'postgres://divilo-pitr.abc123.eu-west-1.rds.amazonaws.com:5432/divilo?sslmode=verify-full',
    );
    // Traces and metrics go to the collector beside it; /metrics is not served (nothing scrapes it there).
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(COLLECTOR_ENDPOINT);
    expect(config.telemetry).toEqual({ otlp: { traces: true, metrics: true } });
  });

  it("texts through SNS: the sender ID, origination number and price cap as parameters the server accepts, and no SMS provider's URL or key", () => {
    const parameters = template.toJSON().Parameters as Record<string, { Default?: string; AllowedPattern?: string }>;
    expect(parameters.SmsProviderUrl).toBeUndefined();
    expect(Object.keys(resources).filter((id) => id.includes('SmsProviderApiKey'))).toEqual([]);
    const allowed = (name: string, value: string) => new RegExp(parameters[name].AllowedPattern!).test(value);
    expect(parameters.SmsSender.Default).toBe('Divilo');
    expect(['Divilo', 'BancoX1'].every((value) => allowed('SmsSender', value)) && !['Banco X', 'DB', 'DiviloBanco12'].some((value) => allowed('SmsSender', value))).toBe(true);
    expect(parameters.SmsOriginationNumber.Default).toBe('');
    expect(['', '+34900000001'].every((value) => allowed('SmsOriginationNumber', value)) && !allowed('SmsOriginationNumber', '900000001')).toBe(true);
    expect(parameters.SmsMaxPriceUsd.Default).toBe('');
    expect(['', '0.15', '12'].every((value) => allowed('SmsMaxPriceUsd', value)) && !allowed('SmsMaxPriceUsd', '0.1.5')).toBe(true);

    // What the container is given reaches the sender as the bank set it.
    const task = resources[logicalId('AWS::ECS::TaskDefinition', 'Server')].Properties as { ContainerDefinitions: { Environment: { Name: string; Value: unknown }[] }[] };
    const sms = Object.fromEntries(task.ContainerDefinitions[0].Environment.filter(({ Name }) => Name.startsWith('SMS_')).map(({ Name, Value }) => [Name, Value]));
    expect(sms).toEqual({ SMS_PROVIDER: 'sns', SMS_SENDER: { Ref: 'SmsSender' }, SMS_ORIGINATION_NUMBER: { Ref: 'SmsOriginationNumber' }, SMS_MAX_PRICE_USD: { Ref: 'SmsMaxPriceUsd' } });
    const resolved = resolve(sms, { SmsSender: 'BancoX1', SmsOriginationNumber: '+34900000001', SmsMaxPriceUsd: '0.15' }) as Record<string, string>;
    expect(loadConfig(resolved).messaging.sms).toMatchObject({ provider: 'sns', senderId: 'BancoX1', originationNumber: '+34900000001', maxPriceUsd: '0.15' });
  });

  it('keeps every secret, the identity pool and the staff\'s groups when the stack is deleted, as the pools, bucket and database snapshot are', () => {
    const secrets = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::SecretsManager::Secret');
    expect(secrets.length).toBe(7);
    for (const [id, secret] of secrets) expect({ id, DeletionPolicy: secret.DeletionPolicy, UpdateReplacePolicy: secret.UpdateReplacePolicy }).toEqual({ id, DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    // The database's own secret among them: its final snapshot's password.
    expect(secrets.map(([id]) => id)).toContainEqual(expect.stringContaining('DatabaseSecret'));
    const kept = (type: string) => Object.values(resources).filter((resource) => resource.Type === type).map((resource) => resource.DeletionPolicy);
    expect(kept('AWS::Cognito::IdentityPool')).toEqual(['Retain']);
    expect(kept('AWS::Cognito::UserPoolGroup')).toEqual(STAFF_ROLES.map(() => 'Retain'));
    expect(kept('AWS::Cognito::UserPool')).toEqual(['Retain', 'Retain']);
    expect(resources[logicalId('AWS::S3::Bucket', 'Documents')].DeletionPolicy).toBe('Retain');
    expect(resources[logicalId('AWS::RDS::DBInstance', 'Database')]).toMatchObject({ DeletionPolicy: 'Snapshot', Properties: { DeletionProtection: true, DeleteAutomatedBackups: false, BackupRetentionPeriod: 14 } });
    // And the stack itself is not deleted by mistake.
    expect(stack.terminationProtection).toBe(true);
  });

  it('switches the servers to a database restored beside the stack\'s own, and outputs what such a restore needs', () => {
    const json = template.toJSON() as { Parameters: Record<string, { Default?: string; AllowedPattern?: string }>; Conditions: Record<string, unknown>; Outputs: Record<string, { Value: unknown }> };
    expect(json.Parameters.DatabaseEndpoint).toMatchObject({ Default: '' });
    const pattern = new RegExp(json.Parameters.DatabaseEndpoint.AllowedPattern!);
    expect(['', 'divilo-pitr.abc123.eu-west-1.rds.amazonaws.com:5432'].every((value) => pattern.test(value))).toBe(true);
    expect(['postgres://x:5432', 'host', 'host:5432/divilo'].some((value) => pattern.test(value))).toBe(false);
    expect(json.Conditions.OwnDatabase).toEqual({ 'Fn::Equals': [{ Ref: 'DatabaseEndpoint' }, ''] });
    // With the parameter empty the stack's own database is used (resolved in the test above); its instance does not
    // depend on the parameter, so setting it never touches the instance.
    expect(JSON.stringify(resources[logicalId('AWS::RDS::DBInstance', 'Database')])).not.toContain('DatabaseEndpoint');
    expect(json.Outputs).toMatchObject({
      DatabaseInstance: { Value: { Ref: logicalId('AWS::RDS::DBInstance', 'Database') } },
      DatabaseSubnetGroup: { Value: { Ref: logicalId('AWS::RDS::DBSubnetGroup', 'Database') } },
      DatabaseSecurityGroupId: { Value: { 'Fn::GetAtt': [logicalId('AWS::EC2::SecurityGroup', 'DatabaseSecurityGroup'), 'GroupId'] } },
      DatabaseParameterGroup: { Value: { Ref: logicalId('AWS::RDS::DBParameterGroup', 'DatabaseParameters') } },
    });
    // The secrets the bank fills in (step 7), by ARN.
    for (const name of ['SmtpUrl', 'SealP12', 'SealP12Passphrase', 'IdentityWebhookSecret']) {
      const secret = Object.keys(resources).filter((id) => new RegExp(`^${name}[0-9A-F]{8}$`).test(id));
      expect(secret).toHaveLength(1);
      expect(json.Outputs[`${name}Arn`].Value).toEqual({ Ref: secret[0] });
    }
  });
});

describe('watching it', () => {
  type Alarm = { Properties: Record<string, unknown> & { AlarmActions: unknown[]; OKActions: unknown[]; Threshold: unknown } };
  const alarmNamed = (name: string) => resources[logicalId('AWS::CloudWatch::Alarm', `Alarms${name}`)] as unknown as Alarm;
  const topic = () => ({ Ref: logicalId('AWS::SNS::Topic', 'AlarmsTopic') });
  const namespace = 'Divilo/Test';
  /** The metric a math alarm divides by requests: its name and namespace. */
  const mathMetrics = (alarm: Alarm) =>
    (alarm.Properties.Metrics as { Id: string; Expression?: string; MetricStat?: { Metric: { MetricName: string; Namespace: string }; Stat: string; Period: number } }[]).map((metric) =>
      metric.Expression ?? `${metric.Id}=${metric.MetricStat!.Metric.Namespace}/${metric.MetricStat!.Metric.MetricName}:${metric.MetricStat!.Stat}/${metric.MetricStat!.Period}`,
    );

  it('tells AlarmEmail, over an SNS topic that takes TLS only', () => {
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: { Ref: 'AlarmEmail' }, TopicArn: topic() });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
    const alarms = Object.values(resources).filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm');
    expect(alarms).toHaveLength(11);
    // Every alarm tells the topic when it goes off and when it is over.
    for (const alarm of alarms) expect(alarm.Properties).toMatchObject({ AlarmActions: [topic()], OKActions: [topic()] });
  });

  it.each([
    ['LoadBalancer5xxRate', 'AWS/ApplicationELB/HTTPCode_ELB_5XX_Count'],
    ['Server5xxRate', 'AWS/ApplicationELB/HTTPCode_Target_5XX_Count'],
  ])('%s: more than 5%% of at least 20 requests in 5 minutes, twice in a row', (name, errors) => {
    const alarm = alarmNamed(name);
    expect(alarm.Properties).toMatchObject({ Threshold: 5, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 2 });
    expect(mathMetrics(alarm)).toEqual(['IF(FILL(requests, 0) >= 20, 100 * FILL(errors, 0) / requests, 0)', 'requests=AWS/ApplicationELB/RequestCount:Sum/300', `errors=${errors}:Sum/300`]);
  });

  it.each([
    ['ResponseTimeP99', { Namespace: 'AWS/ApplicationELB', MetricName: 'TargetResponseTime', ExtendedStatistic: 'p99', Period: 300, Threshold: 2, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 3 }],
    ['UnhealthyServers', { Namespace: 'AWS/ApplicationELB', MetricName: 'UnHealthyHostCount', Statistic: 'Maximum', Period: 300, Threshold: 1, EvaluationPeriods: 2 }],
    ['SmsSpend', { Namespace: 'AWS/SNS', MetricName: 'SMSMonthToDateSpentUSD', Statistic: 'Maximum', Period: 3600, Threshold: { Ref: 'SmsMonthlySpendAlarmUSD' }, EvaluationPeriods: 1 }],
    ['MessageBudgetTotalSpent', { Namespace: namespace, MetricName: 'MessageBudgetTotalSpent', Statistic: 'Sum', Period: 300, Threshold: 1, EvaluationPeriods: 1 }],
    ['MessageBudgetNearlySpent', { Namespace: namespace, MetricName: 'MessageBudgetUsedPercent', Statistic: 'Maximum', Period: 300, Threshold: 80, EvaluationPeriods: 1 }],
    ['ReviewQueueOverTarget', { Namespace: namespace, MetricName: 'ReviewQueueOverTarget', Statistic: 'Maximum', Period: 1800, Threshold: 1, EvaluationPeriods: 1 }],
    ['DecisionEffectsPending', { Namespace: namespace, MetricName: 'DecisionEffectsPending', Statistic: 'Maximum', Period: 600, Threshold: 1, EvaluationPeriods: 3 }],
    ['HousekeepingFailures', { Namespace: namespace, MetricName: 'HousekeepingFailures', Statistic: 'Sum', Period: 600, Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2 }],
    ['PreTokenGenerationErrors', { Namespace: 'AWS/Lambda', MetricName: 'Errors', Statistic: 'Sum', Period: 300, Threshold: 1, EvaluationPeriods: 1 }],
  ])('%s: its metric, statistic and threshold', (name, expected) => {
    expect(alarmNamed(name).Properties).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', TreatMissingData: 'notBreaching', ...expected });
  });

  it("watches the pre-token-generation Lambda and the servers' own target group", () => {
    expect(alarmNamed('PreTokenGenerationErrors').Properties.Dimensions).toEqual([{ Name: 'FunctionName', Value: { Ref: logicalId('AWS::Lambda::Function', 'PreTokenGeneration') } }]);
    const targetGroup = logicalId('AWS::ElasticLoadBalancingV2::TargetGroup', 'Server');
    expect(alarmNamed('ResponseTimeP99').Properties.Dimensions).toEqual(expect.arrayContaining([{ Name: 'TargetGroup', Value: { 'Fn::GetAtt': [targetGroup, 'TargetGroupFullName'] } }]));
  });

  it("counts the server's own signals from its log lines, by the messages the server logs them with", () => {
    const serverLogs = { Ref: logicalId('AWS::Logs::LogGroup', 'ServerLogs') };
    const filters = Object.values(resources)
      .filter((resource) => resource.Type === 'AWS::Logs::MetricFilter')
      .map((resource) => resource.Properties as { FilterPattern: string; LogGroupName: unknown; MetricTransformations: { MetricName: string; MetricNamespace: string; MetricValue: string }[] });
    for (const filter of filters) expect(filter.LogGroupName).toEqual(serverLogs);
    const run = `{ $.msg = "${LOG_SIGNALS.housekeepingRun}" }`;
    expect(filters.map((filter) => [filter.FilterPattern, ...filter.MetricTransformations.map((metric) => `${metric.MetricNamespace}/${metric.MetricName}=${metric.MetricValue}`)]).sort()).toEqual(
      [
        [run, `${namespace}/HousekeepingFailures=$.housekeeping.failed`],
        [`{ $.msg = "${LOG_SIGNALS.uploadSweepFailed}" }`, `${namespace}/HousekeepingFailures=1`],
        [run, `${namespace}/ReviewQueueOverTarget=$.housekeeping.reviewQueue.overTarget`],
        [run, `${namespace}/ReviewQueueOldestWaitHours=$.housekeeping.reviewQueue.oldestWaitHours`],
        [run, `${namespace}/DecisionEffectsPending=$.housekeeping.decisionEffectsPending`],
        [`{ ($.msg = "${LOG_SIGNALS.messageBudgetSpent}") && ($.refusedBy = "total") }`, `${namespace}/MessageBudgetTotalSpent=1`],
        [`{ $.msg = "${LOG_SIGNALS.messageBudgetUse}" }`, `${namespace}/MessageBudgetUsedPercent=$.messageBudget.usedPercent`],
      ].sort(),
    );
  });

  it('gives every log group it makes a retention, the Lambda\'s included', () => {
    const groups = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Logs::LogGroup');
    expect(groups.length).toBeGreaterThanOrEqual(3);
    for (const [, group] of groups) expect(group.Properties.RetentionInDays).toEqual(expect.any(Number));
    const functions = Object.values(resources).filter((resource) => resource.Type === 'AWS::Lambda::Function');
    for (const fn of functions) {
      const { LogGroup } = fn.Properties.LoggingConfig as { LogGroup: { Ref: string } };
      expect(resources[LogGroup.Ref]).toMatchObject({ Type: 'AWS::Logs::LogGroup', Properties: { RetentionInDays: 365 } });
    }
    expect(resources[logicalId('AWS::Logs::LogGroup', 'ServerLogs')].Properties.RetentionInDays).toBe(365);
  });

  it("archives the trail's files after a quarter and deletes them after ten years", () => {
    const trailBucket = (resources[logicalId('AWS::CloudTrail::Trail', 'StorageChanges')].Properties as { S3BucketName: { Ref: string } }).S3BucketName.Ref;
    expect(resources[trailBucket].Properties.LifecycleConfiguration).toEqual({
      Rules: [{ Id: 'archive-then-expire', Status: 'Enabled', Transitions: [{ StorageClass: 'DEEP_ARCHIVE', TransitionInDays: TRAIL_ARCHIVE_DAYS }], ExpirationInDays: TRAIL_KEEP_DAYS }],
    });
    expect(TRAIL_KEEP_DAYS).toBeGreaterThanOrEqual(3652);
  });

  it('runs an OpenTelemetry collector beside each server: not essential, OTLP in on the loopback only, signed OTLP out to X-Ray and CloudWatch', () => {
    const task = resources[logicalId('AWS::ECS::TaskDefinition', 'Server')].Properties as {
      ContainerDefinitions: { Name: string; Image: string; Essential: boolean; Environment: { Name: string; Value: unknown }[]; LogConfiguration: { Options: Record<string, unknown> } }[];
    };
    const collector = task.ContainerDefinitions.find((definition) => definition.Name === 'otel-collector')!;
    expect(collector).toMatchObject({ Image: COLLECTOR_IMAGE, Essential: false });
    expect(COLLECTOR_IMAGE).toMatch(/:v\d+\.\d+\.\d+$/);
    const config = String(resolve(collector.Environment.find((variable) => variable.Name === 'AOT_CONFIG_CONTENT')!.Value, { 'AWS::Region': 'eu-west-1', 'AWS::URLSuffix': 'amazonaws.com' }));
    expect(config).toContain('http: { endpoint: "127.0.0.1:4318" }');
    expect(config).toContain('traces_endpoint: "https://xray.eu-west-1.amazonaws.com/v1/traces"');
    expect(config).toContain('metrics_endpoint: "https://monitoring.eu-west-1.amazonaws.com/v1/metrics"');
    expect(config).toMatch(/otlphttp\/traces: \{[^}]*auth: \{ authenticator: sigv4auth\/xray \}/);
    expect(config).not.toContain('0.0.0.0');
    expect(collector.LogConfiguration.Options['awslogs-group']).toEqual({ Ref: logicalId('AWS::Logs::LogGroup', 'CollectorLogs') });
  });
});
