// Every AWS call the server (and `npm run admin`, which runs with the same role) makes, with the IAM actions
// and the resource each needs: the one source of the server's permissions. The deployment (deploy/) builds
// the server's role from it, docs/storage.md shows the same policy, and a test finds every AWS SDK command the
// code constructs and fails until each is listed here, and while anything listed is no longer called.
// No imports: the deployment's own package reads this file too.

/**
 * The areas of the documents bucket, by key prefix: the applicants' own (`private/<identity id>/`, written with
 * their identity-pool credentials) and the server's copies of what the bank relied on (`evidence/`).
 */
export const STORAGE_AREAS = { applicants: 'private/', evidence: 'evidence/' } as const;

/**
 * The resources the server touches: the customers' user pool, the staff's (`npm run admin -- staff`), the identity
 * pool, the documents bucket, all its objects, the applicants' areas and the evidence area, and phone numbers (SMS
 * through SNS).
 */
type AwsResource = 'userPool' | 'staffPool' | 'identityPool' | 'bucket' | 'objects' | 'applicantObjects' | 'evidenceObjects' | 'phoneNumbers';

/** An IAM condition block, as a policy statement writes it. */
type Condition = Record<string, Record<string, string>>;

/**
 * A write that may only create: S3 checks `s3:if-none-match` against the request's `If-None-Match` header, and a
 * PutObject without `If-None-Match: *` does not match, so it is refused even on a key nothing holds yet.
 */
export const CREATE_ONLY: Condition = { StringEquals: { 's3:if-none-match': '*' } };

interface Grant {
  action: string;
  resource: AwsResource;
  /** Only for requests that meet it (a statement of its own). */
  condition?: Condition;
}

interface AwsCall {
  /** `<service>:<operation>` as the SDK sends it (the command's name without `Command`). */
  call: string;
  /** The IAM actions it needs, each on its resource: an operation is not always its own action (HeadObject is s3:GetObject). */
  grants: readonly Grant[];
  /** What the server does with it. */
  why: string;
}

export const SERVER_AWS_CALLS: readonly AwsCall[] = [
  {
    call: 'cognito-idp:AdminCreateUser',
    grants: [{ action: 'cognito-idp:AdminCreateUser', resource: 'userPool' }, { action: 'cognito-idp:AdminCreateUser', resource: 'staffPool' }],
    why: "creates an applicant's sign-in user once their identity is verified (no message sent), and a member of the staff with a temporary password (`staff add`)",
  },
  {
    call: 'cognito-idp:AdminSetUserPassword',
    grants: [{ action: 'cognito-idp:AdminSetUserPassword', resource: 'userPool' }, { action: 'cognito-idp:AdminSetUserPassword', resource: 'staffPool' }],
    why: "sets the password an applicant chose (kept sealed until the user is made), a recovered one, and a staff member's new temporary one (`staff reset`, an interrupted `staff add`)",
  },
  {
    call: 'cognito-idp:AdminGetUser',
    grants: [{ action: 'cognito-idp:AdminGetUser', resource: 'userPool' }, { action: 'cognito-idp:AdminGetUser', resource: 'staffPool' }],
    why: "reads the account at the SMS step (enabled, phone, onboarding status) and in recovery; a staff member's for `staff show`",
  },
  { call: 'cognito-idp:AdminUpdateUserAttributes', grants: [{ action: 'cognito-idp:AdminUpdateUserAttributes', resource: 'userPool' }], why: 'keeps custom:onboarding_status and the verified phone and e-mail up to date' },
  {
    call: 'cognito-idp:AdminDisableUser',
    grants: [{ action: 'cognito-idp:AdminDisableUser', resource: 'userPool' }, { action: 'cognito-idp:AdminDisableUser', resource: 'staffPool' }],
    why: 'disables an account (the identity service module; `staff disable`)',
  },
  {
    call: 'cognito-idp:AdminEnableUser',
    grants: [{ action: 'cognito-idp:AdminEnableUser', resource: 'userPool' }, { action: 'cognito-idp:AdminEnableUser', resource: 'staffPool' }],
    why: 'enables an account again (the identity service module; `staff enable`)',
  },
  {
    call: 'cognito-idp:AdminUserGlobalSignOut',
    grants: [{ action: 'cognito-idp:AdminUserGlobalSignOut', resource: 'userPool' }, { action: 'cognito-idp:AdminUserGlobalSignOut', resource: 'staffPool' }],
    why: 'signs a user out everywhere after a password change, and a staff member who is disabled or reset',
  },
  { call: 'cognito-idp:AdminDeleteUser', grants: [{ action: 'cognito-idp:AdminDeleteUser', resource: 'userPool' }], why: "removes the sign-in user of a rejected or expired application, freeing its ID document" },
  { call: 'cognito-idp:AdminAddUserToGroup', grants: [{ action: 'cognito-idp:AdminAddUserToGroup', resource: 'staffPool' }], why: "gives a staff member a role (`staff add`, `staff roles`)" },
  { call: 'cognito-idp:AdminRemoveUserFromGroup', grants: [{ action: 'cognito-idp:AdminRemoveUserFromGroup', resource: 'staffPool' }], why: "takes a role from a staff member (`staff roles`)" },
  {
    call: 'cognito-idp:AdminDeleteSoftwareToken',
    grants: [{ action: 'cognito-idp:AdminDeleteSoftwareToken', resource: 'staffPool' }],
    why: "forgets a staff member's lost authenticator app, so they enrol a new one (`staff reset --authenticator`)",
  },
  { call: 'cognito-idp:AdminListGroupsForUser', grants: [{ action: 'cognito-idp:AdminListGroupsForUser', resource: 'staffPool' }], why: "reads a staff member's roles (`staff roles`, `staff show`)" },
  {
    call: 'cognito-identity:GetOpenIdTokenForDeveloperIdentity',
    grants: [{ action: 'cognito-identity:GetOpenIdTokenForDeveloperIdentity', resource: 'identityPool' }],
    why: "gives an application its storage identity and a token the browser trades for upload credentials",
  },
  { call: 'cognito-identity:DeleteIdentities', grants: [{ action: 'cognito-identity:DeleteIdentities', resource: 'identityPool' }], why: "forgets an erased application's storage identity" },
  { call: 'cognito-identity:LookupDeveloperIdentity', grants: [{ action: 'cognito-identity:LookupDeveloperIdentity', resource: 'identityPool' }], why: "reads an application's storage identity when a document is reported" },
  // Without s3:ListBucket, S3 answers a missing key 403 instead of 404, and "no such document" would become a 500.
  { call: 's3:HeadObject', grants: [{ action: 's3:GetObject', resource: 'objects' }, { action: 's3:ListBucket', resource: 'bucket' }], why: "checks a reported document's size and type" },
  { call: 's3:GetObject', grants: [{ action: 's3:GetObject', resource: 'objects' }, { action: 's3:ListBucket', resource: 'bucket' }], why: "reads a document's first bytes or whole photo; the reviewers' download links are signed with it" },
  // Evidence is written once and never replaced or removed by the server: a create, under evidence/ only.
  {
    call: 's3:PutObject',
    grants: [{ action: 's3:PutObject', resource: 'evidenceObjects', condition: CREATE_ONLY }],
    why: "copies a checked document into the server's own evidence/ area when it is frozen, only where nothing is yet (If-None-Match: *)",
  },
  // Evidence is removed only with the application it belongs to, when nothing holds it any more (an application abandoned,
  // or erased without a relationship); what the bank relied on is under Object Lock, which no delete passes, and a
  // delete on the versioned bucket keeps the version before it (docs/storage.md, "Versions and Object Lock").
  {
    call: 's3:DeleteObject',
    grants: [
      { action: 's3:DeleteObject', resource: 'applicantObjects' },
      { action: 's3:DeleteObject', resource: 'evidenceObjects' },
    ],
    why: "removes a refused or replaced document in the applicant's area, and an erased application's files and evidence",
  },
  // What the bank relied on for a decision is locked for as long as the law keeps it (COMPLIANCE: only ever later).
  { call: 's3:PutObjectRetention', grants: [{ action: 's3:PutObjectRetention', resource: 'evidenceObjects' }], why: "locks a decided application's evidence copies for their legal retention" },
  { call: 's3:ListObjectsV2', grants: [{ action: 's3:ListBucket', resource: 'bucket' }], why: "lists applicants' areas for uploads never reported as documents, and an erased application's areas" },
  { call: 's3:DeleteObjects', grants: [{ action: 's3:DeleteObject', resource: 'applicantObjects' }], why: "removes uploads never reported as documents, a day after they were stored, in the applicants' areas" },
  { call: 'sns:Publish', grants: [{ action: 'sns:Publish', resource: 'phoneNumbers' }], why: 'sends an SMS (a code) straight to a phone number, never to a topic or an endpoint' },
];

/** The names the policy's resources are written with: real ones (or deployment tokens), or the docs' placeholders. */
interface AwsResourceNames {
  partition: string;
  region: string;
  account: string;
  userPoolId: string;
  /** Absent: no staff pool (no back office), and no statement for it. */
  staffUserPoolId?: string;
  identityPoolId: string;
  bucket: string;
}

function resourceArn(resource: AwsResource, names: AwsResourceNames): string | undefined {
  const { partition, region, account } = names;
  switch (resource) {
    case 'userPool':
      return `arn:${partition}:cognito-idp:${region}:${account}:userpool/${names.userPoolId}`;
    case 'staffPool':
      return names.staffUserPoolId === undefined ? undefined : `arn:${partition}:cognito-idp:${region}:${account}:userpool/${names.staffUserPoolId}`;
    case 'identityPool':
      return `arn:${partition}:cognito-identity:${region}:${account}:identitypool/${names.identityPoolId}`;
    case 'bucket':
      return `arn:${partition}:s3:::${names.bucket}`;
    case 'objects':
      return `arn:${partition}:s3:::${names.bucket}/*`;
    case 'applicantObjects':
      return `arn:${partition}:s3:::${names.bucket}/${STORAGE_AREAS.applicants}*`;
    case 'evidenceObjects':
      return `arn:${partition}:s3:::${names.bucket}/${STORAGE_AREAS.evidence}*`;
    case 'phoneNumbers':
      // A Publish to a phone number names no resource, so IAM takes it only under "*"; the Deny below keeps that
      // "*" from reaching any topic or endpoint (every SNS ARN).
      return '*';
  }
}

const STATEMENT_IDS: Record<AwsResource, string> = {
  userPool: 'UserPool',
  staffPool: 'StaffUserPool',
  identityPool: 'IdentityPool',
  bucket: 'DocumentsBucket',
  objects: 'Documents',
  applicantObjects: 'ApplicantAreas',
  evidenceObjects: 'Evidence',
  phoneNumbers: 'TextMessages',
};

interface PolicyStatement {
  Sid: string;
  Effect: 'Allow' | 'Deny';
  Action: string[];
  Resource: string;
  Condition?: Condition;
}

/** The one statement on "*" (SMS to phone numbers) comes with this one: none of its actions on any SNS topic or endpoint. */
const notTopicsOrEndpoints = (actions: string[], partition: string): PolicyStatement => ({
  Sid: 'NoTopicsOrEndpoints',
  Effect: 'Deny',
  Action: actions,
  Resource: `arn:${partition}:sns:*:*:*`,
});

/**
 * The server's IAM policy: one statement per resource (and per condition on it: a grant with a condition never
 * shares a statement with one without), its actions sorted; the statement on "*" (SMS) is followed by the Deny that
 * keeps it off topics and endpoints. Nothing else.
 */
export function serverPolicyDocument(names: AwsResourceNames, calls: readonly AwsCall[] = SERVER_AWS_CALLS): { Version: '2012-10-17'; Statement: PolicyStatement[] } {
  const order: AwsResource[] = ['userPool', 'staffPool', 'identityPool', 'bucket', 'objects', 'applicantObjects', 'evidenceObjects', 'phoneNumbers'];
  const grants = calls.flatMap((call) => call.grants);
  const conditionOf = (grant: Grant) => (grant.condition ? JSON.stringify(grant.condition) : '');
  const Statement = order.flatMap((resource): PolicyStatement[] => {
    const Resource = resourceArn(resource, names);
    const onResource = grants.filter((grant) => grant.resource === resource);
    const conditions = [...new Set(onResource.map(conditionOf))].sort();
    if (!Resource) return [];
    const statements = conditions.map((condition, index) => {
      const actions = [...new Set(onResource.filter((grant) => conditionOf(grant) === condition).map((grant) => grant.action))].sort();
      // A policy's statement ids are unique: a second statement on the same resource is numbered.
      const statement: PolicyStatement = { Sid: `${STATEMENT_IDS[resource]}${index === 0 ? '' : index + 1}`, Effect: 'Allow', Action: actions, Resource };
      if (condition) statement.Condition = JSON.parse(condition) as Condition;
      return statement;
    });
    return resource === 'phoneNumbers' ? statements.flatMap((statement) => [statement, notTopicsOrEndpoints(statement.Action, names.partition)]) : statements;
  });
  return { Version: '2012-10-17', Statement };
}
