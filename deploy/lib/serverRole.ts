import { Aws } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { serverPolicyDocument } from '../../server/awsPermissions';

/**
 * The server's task role: exactly the actions server/awsPermissions.ts lists, on this deployment's pools,
 * identity pool and bucket. Nothing is added here by hand: a new call of the server goes into that list.
 */
export function serverRole(scope: Construct, names: { userPoolId: string; staffUserPoolId: string; identityPoolId: string; bucket: string }): iam.Role {
  const policy = serverPolicyDocument({ partition: Aws.PARTITION, region: Aws.REGION, account: Aws.ACCOUNT_ID, ...names });
  return new iam.Role(scope, 'ServerRole', {
    assumedBy: new iam.ServicePrincipal('ecs-tasks.amazonaws.com'),
    description: 'The onboarding server: its AWS calls, from server/awsPermissions.ts',
    inlinePolicies: { ServerCalls: iam.PolicyDocument.fromJson(policy) },
  });
}
