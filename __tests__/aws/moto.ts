// "AWS" for tests: moto's server (an AWS emulator) with IAM enforcement on, and the product's resources made in
// it from the deployment's own synthesized CloudFormation template (deploy/). moto's CloudFormation cannot make
// Cognito pools, so each resource is made with the API calls CloudFormation would make, from that resource's
// properties in the template; the server's IAM user gets the policy of the deployed server role.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { CognitoIdentityClient, CreateIdentityPoolCommand, SetIdentityPoolRolesCommand } from '@aws-sdk/client-cognito-identity';
import { CognitoIdentityProviderClient, CreateGroupCommand, CreateUserPoolClientCommand, CreateUserPoolCommand, SetUserPoolMfaConfigCommand } from '@aws-sdk/client-cognito-identity-provider';
import {
  type CORSRule,
  CreateBucketCommand,
  type LifecycleRule,
  PutBucketCorsCommand,
  PutBucketEncryptionCommand,
  PutBucketLifecycleConfigurationCommand,
  PutBucketVersioningCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { freePort } from '../server/helpers';

const root = path.resolve(__dirname, '../..');
export const REGION = 'eu-west-1';
const ACCOUNT = '123456789012';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** Why the emulator itself cannot run here, or undefined when it can. */
export function emulatorUnavailable(): string | undefined {
  const probe = spawnSync('python3', ['-c', 'import moto.server, moto.cognitoidp, moto.cognitoidentity, moto.s3, moto.iam, moto.sns'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `python3 -m moto is not importable (pip install 'moto[server]'): ${(probe.error?.message ?? probe.stderr).trim().split('\n').pop()}`;
  return undefined;
}

/** Why the AWS tests of the deployment cannot run here, or undefined when they can. */
export function motoUnavailable(): string | undefined {
  const emulator = emulatorUnavailable();
  if (emulator) return emulator;
  if (!existsSync(path.join(root, 'deploy/node_modules/aws-cdk-lib'))) return 'deploy/ is not installed (npm ci --prefix deploy): the resources are made from its template';
  if (!process.env.DATABASE_URL) return 'DATABASE_URL is not set: the server runs on PostgreSQL, as on AWS';
  return undefined;
}

/**
 * The suite's `describe`: skipped, saying why, where the emulator cannot run; under CI (`CI` set, as .ci/run sets
 * it) a missing prerequisite fails the run instead, so the AWS tests are never left out quietly.
 */
export function describeWhenAvailable(suite: string, unavailable: string | undefined): jest.Describe {
  if (!unavailable) return describe;
  if (process.env.CI) throw new Error(`${suite} cannot run under CI: ${unavailable}`);
  process.stderr.write(`${suite} skipped: ${unavailable}\n`);
  return describe.skip;
}

/** Requests moto answers before it asks IAM: the three that make the administrator below. */
const UNSIGNED_SETUP_REQUESTS = 3;

export interface Moto {
  endpoint: string;
  admin: Credentials;
  stop(): Promise<void>;
}

/** Starts moto (motoServer.py: moto's server with its gaps filled) and makes the administrator the rest is made with. */
export async function startMoto(): Promise<Moto> {
  const port = await freePort();
  const child: ChildProcess = spawn('python3', [path.join(__dirname, 'motoServer.py'), '-H', '127.0.0.1', '-p', String(port)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', INITIAL_NO_AUTH_ACTION_COUNT: String(UNSIGNED_SETUP_REQUESTS), PYTHONUNBUFFERED: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += String(chunk);
      if (output.includes(`Running on http://127.0.0.1:${port}`)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then(() => reject(new Error(`moto exited before it ran:\n${output}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    // The only unsigned requests: an administrator allowed everything, made before enforcement starts.
    const anyone = { accessKeyId: 'AKIASETUP0000000000', secretAccessKey: 'setup' };
    await iam(endpoint, anyone, { Action: 'CreateUser', UserName: 'administrator' });
    await iam(endpoint, anyone, { Action: 'PutUserPolicy', UserName: 'administrator', PolicyName: 'everything', PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }) });
    const admin = accessKey(await iam(endpoint, anyone, { Action: 'CreateAccessKey', UserName: 'administrator' }));
    return { endpoint, admin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** One IAM Query API call, signed (moto's IAM speaks only the Query protocol; no IAM client is installed). */
async function iam(endpoint: string, credentials: Credentials, parameters: Record<string, string>): Promise<string> {
  const body = new URLSearchParams({ ...parameters, Version: '2010-05-08' }).toString();
  const url = new URL(endpoint);
  const signer = new SignatureV4({ credentials, region: 'us-east-1', service: 'iam', sha256: Sha256 });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: Number(url.port),
    path: '/',
    headers: { host: url.host, 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body,
  });
  const response = await fetch(endpoint, { method: 'POST', headers: signed.headers, body });
  const text = await response.text();
  if (!response.ok) throw new Error(`IAM ${parameters.Action}: ${response.status} ${text}`);
  return text;
}

/** An IAM user of the emulator with exactly `policy` (its one inline policy), and its access key. */
export async function userWithPolicy(moto: Moto, name: string, policy: unknown): Promise<Credentials> {
  await iam(moto.endpoint, moto.admin, { Action: 'CreateUser', UserName: name });
  await iam(moto.endpoint, moto.admin, { Action: 'PutUserPolicy', UserName: name, PolicyName: 'calls', PolicyDocument: JSON.stringify(policy) });
  return accessKey(await iam(moto.endpoint, moto.admin, { Action: 'CreateAccessKey', UserName: name }));
}

const accessKey = (xml: string): Credentials => ({
  accessKeyId: /<AccessKeyId>([^<]+)</.exec(xml)![1],
  secretAccessKey: /<SecretAccessKey>([^<]+)</.exec(xml)![1],
});

/** An SMS published to a phone number, as moto's SNS recorded it (with what motoServer.py keeps beside it). */
export interface TextMessage {
  messageId: string;
  phoneNumber: string;
  text: string;
  /** The message attributes as SNS passes them on: `{ Type, Value }` by name. */
  attributes: Record<string, { Type: string; Value: string }>;
  region: string;
  account: string;
}

/** Every SMS moto's SNS was asked to send, oldest first: moto's own /moto-api/data.json, its `sns.SMS` records. */
export async function textMessages(moto: Pick<Moto, 'endpoint'>): Promise<TextMessage[]> {
  const response = await fetch(`${moto.endpoint}/moto-api/data.json`);
  if (!response.ok) throw new Error(`moto's data.json answered ${response.status}`);
  type Recorded = { message_id: string; phone_number: string; message: string; message_attributes?: TextMessage['attributes']; region?: string; account?: string };
  const { sns } = (await response.json()) as { sns?: { SMS?: Recorded[] } };
  return (sns?.SMS ?? []).map((sms) => ({
    messageId: sms.message_id,
    phoneNumber: sms.phone_number,
    text: sms.message,
    attributes: sms.message_attributes ?? {},
    region: sms.region ?? '',
    account: sms.account ?? '',
  }));
}

type Template = { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };

/** The deployment's CloudFormation template, synthesized now (the pre-token-generation Lambda built first). */
export function synthesizedTemplate(): Template {
  spawnSync('npm', ['run', '--silent', 'build:lambdas'], { cwd: root, stdio: 'pipe' });
  // From deploy/'s own node_modules, as its code resolves it; typed here by what is used (the root type-check
  // does not need deploy/ installed).
  type Synthesized = { synth(): { getStackByName(name: string): { template: unknown } } };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { App } = require(path.join(root, 'deploy/node_modules/aws-cdk-lib')) as { App: new () => Synthesized };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { DiviloStack } = require(path.join(root, 'deploy/lib/stack')) as { DiviloStack: new (app: Synthesized, id: string, props: { lambdaDir: string }) => { stackName: string } };
  const app = new App();
  const stack = new DiviloStack(app, 'DiviloOnboarding', { lambdaDir: path.join(root, 'dist-lambdas') });
  return app.synth().getStackByName(stack.stackName).template as Template;
}

function only(template: Template, type: string, name: string): { id: string; properties: Record<string, unknown> } {
  const found = Object.entries(template.Resources).filter(([id, resource]) => resource.Type === type && id.includes(name));
  if (found.length !== 1) throw new Error(`the template has ${found.length} ${type} named like ${name}`);
  return { id: found[0][0], properties: found[0][1].Properties };
}

/** A template value with its references replaced: Fn::Join joined, Ref and Fn::GetAtt from `names`. */
function resolve(value: unknown, names: Record<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(item, names));
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if ('Ref' in object) return names[object.Ref as string] ?? `<${String(object.Ref)}>`;
    if ('Fn::GetAtt' in object) return names[(object['Fn::GetAtt'] as string[]).join('.')] ?? `<${(object['Fn::GetAtt'] as string[]).join('.')}>`;
    if ('Fn::Join' in object) {
      const [separator, parts] = object['Fn::Join'] as [string, unknown[]];
      return parts.map((part) => resolve(part, names)).join(separator);
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolve(item, names)]));
  }
  return value;
}

const pick = (object: Record<string, unknown>, keys: string[]) => Object.fromEntries(keys.filter((key) => object[key] !== undefined).map((key) => [key, object[key]]));

export interface Deployment {
  userPoolId: string;
  clientId: string;
  /** The staff's pool and its back-office client (the back office, `npm run admin -- staff`). */
  staffUserPoolId: string;
  staffClientId: string;
  identityPoolId: string;
  bucket: string;
  /** The server's IAM user: the deployed server role's policy, nothing more. */
  server: Credentials;
}

/** The sender ID the servers on the emulator text from. */
export const SENDER_ID = 'DiviloTest';

/**
 * The server's environment on the emulator: the deployment's resources, signed as the server's IAM user, and one
 * endpoint for every AWS service, as the SDK reads it (the browser's configuration and the key fetch follow it).
 * SMS go through moto's SNS, as the deployment's containers send them; e-mails stay in the outbox (moto has no SMTP).
 */
export function serverEnvOnMoto(moto: Moto, deployment: Deployment): Record<string, string> {
  return {
    SMS_PROVIDER: 'sns',
    SMS_SENDER: SENDER_ID,
    AWS_REGION: REGION,
    AWS_ENDPOINT_URL: moto.endpoint,
    AWS_ACCESS_KEY_ID: deployment.server.accessKeyId,
    AWS_SECRET_ACCESS_KEY: deployment.server.secretAccessKey,
    COGNITO_USER_POOL_ID: deployment.userPoolId,
    COGNITO_CLIENT_ID: deployment.clientId,
    COGNITO_IDENTITY_POOL_ID: deployment.identityPoolId,
    STAFF_USER_POOL_ID: deployment.staffUserPoolId,
    STAFF_CLIENT_ID: deployment.staffClientId,
    S3_BUCKET: deployment.bucket,
  };
}

/** What CreateUserPool and CreateUserPoolClient take of a pool's and a client's template properties. */
const POOL_PROPERTIES = ['Policies', 'Schema', 'UsernameConfiguration', 'AdminCreateUserConfig', 'MfaConfiguration', 'AccountRecoverySetting', 'DeletionProtection'];
const CLIENT_PROPERTIES = [
  'GenerateSecret',
  'ExplicitAuthFlows',
  'PreventUserExistenceErrors',
  'ReadAttributes',
  'WriteAttributes',
  'EnableTokenRevocation',
  'AccessTokenValidity',
  'IdTokenValidity',
  'RefreshTokenValidity',
  'TokenValidityUnits',
];

/** Makes the template's identity, storage and server-permission resources in moto. `appOrigin` stands for PublicUrl. */
export async function deployToMoto(moto: Moto, template: Template, appOrigin: string): Promise<Deployment> {
  const config = { region: REGION, endpoint: moto.endpoint, credentials: moto.admin };
  const idp = new CognitoIdentityProviderClient(config);
  const identity = new CognitoIdentityClient(config);
  const s3 = new S3Client({ ...config, forcePathStyle: true });
  try {
    // A pool of the template without its LambdaConfig (moto runs no triggers, and the server must hold without them
    // anyway), and an app client of the template.
    const makePool = async (resource: ReturnType<typeof only>, PoolName: string) =>
      (await idp.send(new CreateUserPoolCommand({ PoolName, ...pick(resource.properties, POOL_PROPERTIES) }))).UserPool!.Id!;
    const makeClient = async (resource: ReturnType<typeof only>, UserPoolId: string, ClientName: string) =>
      (await idp.send(new CreateUserPoolClientCommand({ UserPoolId, ClientName, ...pick(resource.properties, CLIENT_PROPERTIES) }))).UserPoolClient!.ClientId!;
    const pool = only(template, 'AWS::Cognito::UserPool', 'Customers');
    const userPoolId = await makePool(pool, 'divilo-customers');
    const clientId = await makeClient(only(template, 'AWS::Cognito::UserPoolClient', 'Web'), userPoolId, 'web');

    // The staff's pool, its groups and its client. Its authenticator app (EnabledMfas) is what CloudFormation sets
    // with SetUserPoolMfaConfig.
    const staffPool = only(template, 'AWS::Cognito::UserPool', 'Staff');
    const staffUserPoolId = await makePool(staffPool, 'divilo-staff');
    if ((staffPool.properties.EnabledMfas as string[]).includes('SOFTWARE_TOKEN_MFA')) {
      await idp.send(new SetUserPoolMfaConfigCommand({ UserPoolId: staffUserPoolId, MfaConfiguration: staffPool.properties.MfaConfiguration as 'ON', SoftwareTokenMfaConfiguration: { Enabled: true } }));
    }
    for (const group of Object.values(template.Resources).filter((resource) => resource.Type === 'AWS::Cognito::UserPoolGroup')) {
      await idp.send(new CreateGroupCommand({ UserPoolId: staffUserPoolId, GroupName: group.Properties.GroupName as string, Description: group.Properties.Description as string }));
    }
    const staffClientId = await makeClient(only(template, 'AWS::Cognito::UserPoolClient', 'BackOffice'), staffUserPoolId, 'back-office');

    const identityPool = only(template, 'AWS::Cognito::IdentityPool', 'Storage');
    const madePool = await identity.send(
      new CreateIdentityPoolCommand({
        IdentityPoolName: 'divilo_storage',
        AllowUnauthenticatedIdentities: identityPool.properties.AllowUnauthenticatedIdentities as boolean,
        DeveloperProviderName: identityPool.properties.DeveloperProviderName as string,
      }),
    );
    const identityPoolId = madePool.IdentityPoolId!;

    // The bucket, with the template's Object Lock, versioning, CORS, encryption and lifecycle written as the S3 API takes them.
    const bucketResource = only(template, 'AWS::S3::Bucket', 'Documents');
    const bucket = `divilo-documents-${Date.now().toString(36)}`;
    await s3.send(
      new CreateBucketCommand({ Bucket: bucket, CreateBucketConfiguration: { LocationConstraint: REGION }, ObjectLockEnabledForBucket: bucketResource.properties.ObjectLockEnabled === true }),
    );
    const versioning = bucketResource.properties.VersioningConfiguration as { Status: 'Enabled' | 'Suspended' } | undefined;
    if (versioning) await s3.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: versioning.Status } }));
    const cors = resolve(bucketResource.properties.CorsConfiguration, { PublicUrl: appOrigin }) as { CorsRules: Record<string, unknown>[] };
    await s3.send(new PutBucketCorsCommand({ Bucket: bucket, CORSConfiguration: { CORSRules: cors.CorsRules.map((rule) => ({ ...pick(rule, ['AllowedOrigins', 'AllowedMethods', 'AllowedHeaders', 'ExposedHeaders']), MaxAgeSeconds: rule.MaxAge }) as CORSRule) } }));
    const encryption = bucketResource.properties.BucketEncryption as { ServerSideEncryptionConfiguration: { ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }[] };
    await s3.send(
      new PutBucketEncryptionCommand({
        Bucket: bucket,
        ServerSideEncryptionConfiguration: { Rules: encryption.ServerSideEncryptionConfiguration.map((rule) => ({ ApplyServerSideEncryptionByDefault: rule.ServerSideEncryptionByDefault })) },
      }),
    );
    type TemplateRule = {
      Id: string;
      Status: 'Enabled';
      Prefix?: string;
      AbortIncompleteMultipartUpload?: { DaysAfterInitiation: number };
      NoncurrentVersionExpiration?: { NoncurrentDays: number };
      ExpiredObjectDeleteMarker?: boolean;
    };
    const lifecycle = bucketResource.properties.LifecycleConfiguration as { Rules: TemplateRule[] };
    const rules = lifecycle.Rules.map(
      (rule): LifecycleRule => ({
        ID: rule.Id,
        Status: rule.Status,
        Filter: { Prefix: rule.Prefix ?? '' },
        AbortIncompleteMultipartUpload: rule.AbortIncompleteMultipartUpload,
        NoncurrentVersionExpiration: rule.NoncurrentVersionExpiration,
        Expiration: rule.ExpiredObjectDeleteMarker ? { ExpiredObjectDeleteMarker: true } : undefined,
      }),
    );
    await s3.send(new PutBucketLifecycleConfigurationCommand({ Bucket: bucket, LifecycleConfiguration: { Rules: rules } }));

    // The server's IAM user, with the deployed server role's own policy.
    const role = only(template, 'AWS::IAM::Role', 'ServerRole');
    const names = { 'AWS::Partition': 'aws', 'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT, [pool.id]: userPoolId, [staffPool.id]: staffUserPoolId, [identityPool.id]: identityPoolId, [bucketResource.id]: bucket };
    const policy = resolve((role.properties.Policies as { PolicyDocument: unknown }[])[0].PolicyDocument, names) as { Statement: { Resource: string }[] };
    // moto 5.2 checks Cognito actions against the resource "*" (it does not know their pools' ARNs), which no
    // pool ARN matches: those statements get "*" here. Their actions stay exactly the deployed ones, and the S3
    // statements keep their bucket ARNs, which moto does check.
    for (const statement of policy.Statement) if (statement.Resource.includes(':cognito-')) statement.Resource = '*';
    // The applicants' role, which the identity pool hands its identities (each to its own area of the bucket).
    const applicantRole = only(template, 'AWS::IAM::Role', 'ApplicantRole');
    names[`${bucketResource.id}.Arn`] = `arn:aws:s3:::${bucket}`;
    const madeRole = await iam(moto.endpoint, moto.admin, {
      Action: 'CreateRole',
      RoleName: 'divilo-applicants',
      AssumeRolePolicyDocument: JSON.stringify(resolve(applicantRole.properties.AssumeRolePolicyDocument, names)),
    });
    for (const { PolicyName, PolicyDocument } of applicantRole.properties.Policies as { PolicyName: string; PolicyDocument: unknown }[]) {
      await iam(moto.endpoint, moto.admin, { Action: 'PutRolePolicy', RoleName: 'divilo-applicants', PolicyName, PolicyDocument: JSON.stringify(resolve(PolicyDocument, names)) });
    }
    await identity.send(new SetIdentityPoolRolesCommand({ IdentityPoolId: identityPoolId, Roles: { authenticated: /<Arn>([^<]+)</.exec(madeRole)![1] } }));

    const server = await userWithPolicy(moto, 'divilo-server', policy);
    return { userPoolId, clientId, staffUserPoolId, staffClientId, identityPoolId, bucket, server };
  } finally {
    idp.destroy();
    identity.destroy();
    s3.destroy();
  }
}
