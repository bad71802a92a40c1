import { RemovalPolicy } from 'aws-cdk-lib';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** What the SSM agent in a task needs to carry an ECS Exec session: its channels, nothing of the product's. */
export const EXEC_CHANNEL_ACTIONS = ['ssmmessages:CreateControlChannel', 'ssmmessages:CreateDataChannel', 'ssmmessages:OpenControlChannel', 'ssmmessages:OpenDataChannel'];
/** What it needs to write the session's transcript to its log group (and to see that the group is encrypted). */
export const EXEC_TRANSCRIPT_ACTIONS = ['logs:CreateLogStream', 'logs:DescribeLogStreams', 'logs:PutLogEvents'];

/**
 * ECS Exec sessions into the running servers, the supported way to the admin on AWS (docs/deploy.md): each session
 * encrypted with a key of the bank's and recorded, what is typed and what is shown, in a log group encrypted with
 * the same key and kept a year. Who may open a session, or read a transcript, is whoever is granted that key.
 */
export class ExecSessions extends Construct {
  readonly key: kms.Key;
  readonly transcripts: logs.LogGroup;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.key = new kms.Key(this, 'Key', {
      description: 'ECS Exec sessions into the onboarding servers: their data channel and their transcripts',
      enableKeyRotation: true,
      // The transcripts outlive the stack: so does the key that opens them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.transcripts = new logs.LogGroup(this, 'Transcripts', { retention: logs.RetentionDays.ONE_YEAR, encryptionKey: this.key, removalPolicy: RemovalPolicy.RETAIN });
  }

  /** The cluster's setting: every session encrypted with the key and logged to the transcripts, whatever the client asks. */
  get clusterConfiguration(): ecs.ExecuteCommandConfiguration {
    return { kmsKey: this.key, logging: ecs.ExecuteCommandLogging.OVERRIDE, logConfiguration: { cloudWatchLogGroup: this.transcripts, cloudWatchEncryptionEnabled: true } };
  }

  /**
   * The exec channel's permissions for the servers' task role, as a policy of their own: the role's inline policy
   * stays exactly the server's AWS calls (server/awsPermissions.ts), which a test compares with the code.
   */
  allow(role: iam.IRole): iam.Policy {
    return new iam.Policy(this, 'TaskPolicy', {
      roles: [role],
      statements: [
        new iam.PolicyStatement({ sid: 'Channels', actions: EXEC_CHANNEL_ACTIONS, resources: ['*'] }),
        // The agent checks that the log group is encrypted before it records there; the call takes no resource.
        new iam.PolicyStatement({ sid: 'TranscriptEncryption', actions: ['logs:DescribeLogGroups'], resources: ['*'] }),
        // The log group's ARN ends in `:*`, which covers its streams.
        new iam.PolicyStatement({ sid: 'Transcripts', actions: EXEC_TRANSCRIPT_ACTIONS, resources: [this.transcripts.logGroupArn] }),
        new iam.PolicyStatement({ sid: 'SessionKey', actions: ['kms:Decrypt', 'kms:GenerateDataKey'], resources: [this.key.keyArn] }),
      ],
    });
  }
}
