import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CREATE_ONLY, SERVER_AWS_CALLS, serverPolicyDocument, STORAGE_AREAS } from '../../server/awsPermissions';
import { awsCallsIn, serverAwsCalls } from './awsCalls';

const root = path.resolve(__dirname, '../..');

describe("the server's AWS permissions", () => {
  it('list every AWS call the code makes, and nothing it no longer makes', () => {
    const found = serverAwsCalls(root);
    const listed = new Set(SERVER_AWS_CALLS.map((entry) => entry.call));
    const unlisted = found.filter((entry) => !listed.has(entry.call)).map((entry) => `${entry.call} (${entry.file})`);
    // A new call: add it to server/awsPermissions.ts (its IAM actions and resource), then the policy in docs/storage.md.
    expect(unlisted).toEqual([]);
    const called = new Set(found.map((entry) => entry.call));
    expect([...listed].filter((call) => !called.has(call))).toEqual([]);
  });

  it('find the calls however they are written, so that a new one cannot slip by', () => {
    const source = `
      import { CopyObjectCommand, S3Client } from '@aws-sdk/client-s3';
      import * as idp from '@aws-sdk/client-cognito-identity-provider';
      import { ListObjectsV2Command as List } from '@aws-sdk/client-s3';
      import type { PutObjectCommand } from '@aws-sdk/client-s3';
      import { SendEmailCommand } from '@aws-sdk/client-sesv2';
      import { Upload } from '@aws-sdk/lib-storage';
      import { presignGetObject } from '../src/documentStorage/uploadDocument';
      const s3 = new S3Client({});
      await s3.send(new CopyObjectCommand({ Bucket: 'b', Key: 'k', CopySource: 'b/x' }));
      await s3.send(new List({ Bucket: 'b' }));
      await client.send(new idp.AdminDisableUserCommand({ UserPoolId: 'p', Username: 'u' }));
      await ses.send(new SendEmailCommand({}));
      await presignGetObject('k', options);
    `;
    expect(awsCallsIn(source).map((entry) => entry.call)).toEqual([
      'unknown:@aws-sdk/lib-storage',
      's3:CopyObject',
      's3:ListObjectsV2',
      'cognito-idp:AdminDisableUser',
      'unknown:@aws-sdk/client-sesv2',
      's3:GetObject',
    ]);
  });

  it('are the policy docs/storage.md shows', () => {
    const docs = readFileSync(path.join(root, 'docs/storage.md'), 'utf8');
    const block = /<!-- server-policy[^>]*-->\s*```json\n([\s\S]*?)```/.exec(docs);
    expect(block).not.toBeNull();
    const placeholders = { partition: 'aws', region: '<region>', account: '<account>', userPoolId: '<user-pool-id>', staffUserPoolId: '<staff-user-pool-id>', identityPoolId: '<identity-pool-id>', bucket: '<bucket>' };
    expect(JSON.parse(block![1])).toEqual(serverPolicyDocument(placeholders));
  });

  it('name the IAM actions AWS checks, not only the operations', () => {
    const policy = serverPolicyDocument({ partition: 'aws', region: 'eu-west-1', account: '123456789012', userPoolId: 'eu-west-1_A', identityPoolId: 'eu-west-1:x', bucket: 'docs' });
    const actions = policy.Statement.flatMap((statement) => statement.Action);
    expect(actions).not.toContain('s3:HeadObject');
    expect(policy.Statement).toContainEqual({ Sid: 'DocumentsBucket', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: 'arn:aws:s3:::docs' });
    expect(policy.Statement.find((statement) => statement.Sid === 'UserPool')?.Resource).toBe('arn:aws:cognito-idp:eu-west-1:123456789012:userpool/eu-west-1_A');
  });

  it('name every resource but one: SMS to phone numbers, on "*" because such a Publish has none, and never on a topic or an endpoint', () => {
    const policy = serverPolicyDocument({ partition: 'aws-cn', region: 'cn-north-1', account: '123456789012', userPoolId: 'cn-north-1_A', identityPoolId: 'cn-north-1:x', bucket: 'docs' });
    const wildcards = policy.Statement.filter((statement) => statement.Resource.includes('*') && !statement.Resource.startsWith('arn:aws-cn:s3:::docs/'));
    expect(wildcards).toEqual([
      { Sid: 'TextMessages', Effect: 'Allow', Action: ['sns:Publish'], Resource: '*' },
      // Every SNS ARN (topics, platform endpoints) of the partition, in any region and account: a Deny wins over the Allow.
      { Sid: 'NoTopicsOrEndpoints', Effect: 'Deny', Action: ['sns:Publish'], Resource: 'arn:aws-cn:sns:*:*:*' },
    ]);
    expect(SERVER_AWS_CALLS.find((entry) => entry.call === 'sns:Publish')?.grants).toEqual([{ action: 'sns:Publish', resource: 'phoneNumbers' }]);
  });

  it('let the server create evidence but never replace it, and remove only in the applicants\' areas and an erased application\'s evidence', () => {
    const policy = serverPolicyDocument({ partition: 'aws', region: 'eu-west-1', account: '123456789012', userPoolId: 'eu-west-1_A', identityPoolId: 'eu-west-1:x', bucket: 'docs' });
    const onObjects = policy.Statement.filter((statement) => statement.Resource.startsWith('arn:aws:s3:::docs/'));
    expect(onObjects).toEqual([
      { Sid: 'Documents', Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::docs/*' },
      { Sid: 'ApplicantAreas', Effect: 'Allow', Action: ['s3:DeleteObject'], Resource: 'arn:aws:s3:::docs/private/*' },
      // Deleting evidence, and locking it: what Object Lock holds does not go (docs/storage.md, "Versions").
      { Sid: 'Evidence', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:PutObjectRetention'], Resource: 'arn:aws:s3:::docs/evidence/*' },
      { Sid: 'Evidence2', Effect: 'Allow', Action: ['s3:PutObject'], Resource: 'arn:aws:s3:::docs/evidence/*', Condition: { StringEquals: { 's3:if-none-match': '*' } } },
    ]);
    expect(CREATE_ONLY).toEqual({ StringEquals: { 's3:if-none-match': '*' } });
    expect(STORAGE_AREAS).toEqual({ applicants: 'private/', evidence: 'evidence/' });
    // So every PutObject the code makes sends If-None-Match: * (today one: the evidence copy, documents.ts).
    const files = [...new Set(serverAwsCalls(root).filter((found) => found.call === 's3:PutObject').map((found) => found.file))];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const puts = readFileSync(path.resolve(root, file), 'utf8').match(/new PutObjectCommand\(\{[^}]*\}\)/g) ?? [];
      expect(puts.length).toBeGreaterThan(0);
      for (const put of puts) expect({ file, put }).toEqual({ file, put: expect.stringContaining("IfNoneMatch: '*'") });
    }
  });

  it("give the staff pool's admin calls on that pool only, and nothing there the staff commands do not make", () => {
    const names = { partition: 'aws', region: 'eu-west-1', account: '123456789012', userPoolId: 'eu-west-1_A', identityPoolId: 'eu-west-1:x', bucket: 'docs' };
    const customers = serverPolicyDocument({ ...names, staffUserPoolId: 'eu-west-1_S' }).Statement.find((statement) => statement.Sid === 'UserPool');
    expect(customers?.Action).not.toContain('cognito-idp:AdminAddUserToGroup');
    expect(serverPolicyDocument({ ...names, staffUserPoolId: 'eu-west-1_S' }).Statement).toContainEqual({
      Sid: 'StaffUserPool',
      Effect: 'Allow',
      Action: [
        'cognito-idp:AdminAddUserToGroup',
        'cognito-idp:AdminCreateUser',
        'cognito-idp:AdminDeleteSoftwareToken',
        'cognito-idp:AdminDisableUser',
        'cognito-idp:AdminEnableUser',
        'cognito-idp:AdminGetUser',
        'cognito-idp:AdminListGroupsForUser',
        'cognito-idp:AdminRemoveUserFromGroup',
        'cognito-idp:AdminSetUserPassword',
        'cognito-idp:AdminUserGlobalSignOut',
      ],
      Resource: 'arn:aws:cognito-idp:eu-west-1:123456789012:userpool/eu-west-1_S',
    });
    // Without a staff pool (no back office), no statement names one.
    expect(serverPolicyDocument(names).Statement.map((statement) => statement.Sid)).toEqual(['UserPool', 'IdentityPool', 'DocumentsBucket', 'Documents', 'ApplicantAreas', 'Evidence', 'Evidence2', 'TextMessages', 'NoTopicsOrEndpoints']);
  });
});
