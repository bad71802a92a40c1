import { Aws, CfnCondition, CfnOutput, CfnParameter, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as patterns from 'aws-cdk-lib/aws-ecs-patterns';
import * as elasticache from 'aws-cdk-lib/aws-elasticache';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as rds from 'aws-cdk-lib/aws-rds';
import * as secrets from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ExecSessions } from './execSessions';
import { Alarms } from './alarms';
import { DEVELOPER_PROVIDER, Identity } from './identity';
import { serverRole } from './serverRole';
import { Documents, StorageChanges } from './storage';
import { Telemetry } from './telemetry';

export interface DiviloStackProps extends StackProps {
  /** The folder `npm run build:lambdas` writes: the pre-token-generation Lambda's bundle. */
  lambdaDir: string;
}

/** The servers' log streams are `<this>/<container>/<task id>` (the awslogs driver's). */
export const SERVER_LOG_STREAM_PREFIX = 'server';
/** The port the server listens on in its container. */
const SERVER_PORT = 8080;
const DATABASE_NAME = 'divilo';
/** Where the image holds the bank's contract templates (the Dockerfile's `contract-templates` build context). */
export const CONTRACT_TEMPLATES_IN_IMAGE = '/app/contract-templates';

/**
 * The whole product on AWS: identity (the customers' and the staff's user pools, their app clients, the
 * pre-token-generation Lambda, the identity pool), the documents bucket, PostgreSQL, Redis, the secrets, and N
 * server containers behind a load balancer. Values known only at deployment are parameters, so `cdk synth` needs
 * no account and makes no lookup.
 */
export class DiviloStack extends Stack {
  constructor(scope: Construct, id: string, props: DiviloStackProps) {
    // Deleting the stack takes turning this off first (docs/deploy.md, "Restore").
    super(scope, id, { terminationProtection: true, ...props });

    const publicUrl = new CfnParameter(this, 'PublicUrl', {
      description: 'Where customers reach the product, an https origin without a path (https://alta.bank.es): PUBLIC_URL, and the origin the bucket takes uploads from',
      allowedPattern: '^https://[a-z0-9.-]+(:[0-9]+)?$',
    }).valueAsString;
    const certificateArn = new CfnParameter(this, 'CertificateArn', { description: "ACM certificate of PublicUrl's host name, in this region" }).valueAsString;
    const imageRepository = new CfnParameter(this, 'ImageRepository', { description: "ECR repository the server's image was pushed to", default: 'divilo-onboarding' }).valueAsString;
    const imageTag = new CfnParameter(this, 'ImageTag', { description: "The server image's tag (an immutable one: the commit)" }).valueAsString;
    const serverCount = new CfnParameter(this, 'ServerCount', {
      type: 'Number',
      description: 'Server containers (0 until the secrets are filled in, docs/deploy.md)',
      default: 2,
      minValue: 0,
      maxValue: 20,
    }).valueAsNumber;
    // SMS through Amazon SNS (docs/deploy.md, step 2): the sender ID the bank registered, and optional limits.
    const smsSender = new CfnParameter(this, 'SmsSender', {
      description: "SMS_SENDER: the SMS's alphanumeric sender ID, 3 to 11 letters and digits, registered with the CNMC for Spain",
      default: 'Divilo',
      allowedPattern: '^[A-Za-z0-9]{3,11}$',
    }).valueAsString;
    const smsOriginationNumber = new CfnParameter(this, 'SmsOriginationNumber', {
      description: "SMS_ORIGINATION_NUMBER: an origination number of the account (E.164), for countries that take no sender ID; empty for none",
      default: '',
      allowedPattern: '^(\\+[1-9][0-9]{1,14})?$',
    }).valueAsString;
    const smsMaxPriceUsd = new CfnParameter(this, 'SmsMaxPriceUsd', {
      description: 'SMS_MAX_PRICE_USD: the most one SMS may cost, in US dollars (SNS does not send a dearer one); empty for no cap',
      default: '',
      allowedPattern: '^([0-9]{1,2}(\\.[0-9]{1,5})?)?$',
    }).valueAsString;
    const mailFrom = new CfnParameter(this, 'MailFrom', { description: 'Sender of the e-mails (MAIL_FROM), a verified SES identity' }).valueAsString;
    // Who verifies applicants' identity is the bank's decision: no default, the deployment names it.
    const identityProvider = new CfnParameter(this, 'IdentityProvider', {
      description: "IDENTITY_PROVIDER: manual (the bank's reviewers look at the photos) or webhook (an identity provider answers at the webhook, signed with the IdentityWebhookSecret secret)",
      allowedValues: ['manual', 'webhook'],
    }).valueAsString;
    // The switch of docs/deploy.md's restore: the servers use a database restored beside the stack's own.
    const databaseEndpoint = new CfnParameter(this, 'DatabaseEndpoint', {
      description: "Empty: the stack's own database. host:port of a database restored to a point in time (docs/deploy.md, \"Restore\"): the servers use that one instead",
      default: '',
      allowedPattern: '^$|^[a-z0-9.-]+:[0-9]{1,5}$',
    }).valueAsString;

    const alarmEmail = new CfnParameter(this, 'AlarmEmail', {
      description: 'Who is told when an alarm goes off and when it is over (docs/deploy.md, "Alarms"); confirms the subscription once',
      allowedPattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
    }).valueAsString;
    const smsSpendAlarm = new CfnParameter(this, 'SmsMonthlySpendAlarmUSD', {
      type: 'Number',
      description: "This month's SMS spend on SNS, in USD, that sets off an alarm",
      default: 2500,
      minValue: 1,
    }).valueAsNumber;

    const vpc = new ec2.Vpc(this, 'Network', {
      maxAzs: 2,
      // One NAT gateway per zone: the servers reach Cognito, SNS and SES through it, and a zone's
      // outage must not take the other zone's way out.
      natGateways: 2,
      subnetConfiguration: [
        { name: 'public', subnetType: ec2.SubnetType.PUBLIC },
        { name: 'app', subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
        { name: 'data', subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
      ],
    });
    // S3 without the NAT gateway's per-GB charge.
    vpc.addGatewayEndpoint('S3', { service: ec2.GatewayVpcEndpointAwsService.S3 });

    const identity = new Identity(this, 'Identity', { lambdaDir: props.lambdaDir });
    const documents = new Documents(this, 'Documents', { appOrigin: publicUrl });
    identity.grantApplicantsTheirArea(documents.bucket);
    new StorageChanges(this, 'StorageChanges', { documents: documents.bucket });

    const serverSg = new ec2.SecurityGroup(this, 'ServerSecurityGroup', { vpc, description: 'Onboarding server containers' });

    // TLS only: the server connects with sslmode=verify-full.
    const databaseParameters = new rds.ParameterGroup(this, 'DatabaseParameters', {
      engine: rds.DatabaseInstanceEngine.postgres({ version: rds.PostgresEngineVersion.VER_16_13 }),
      parameters: { 'rds.force_ssl': '1' },
    });
    const database = new rds.DatabaseInstance(this, 'Database', {
      engine: rds.DatabaseInstanceEngine.postgres({ version: rds.PostgresEngineVersion.VER_16_13 }),
      instanceType: ec2.InstanceType.of(ec2.InstanceClass.T4G, ec2.InstanceSize.SMALL),
      vpc,
      vpcSubnets: { subnetType: ec2.SubnetType.PRIVATE_ISOLATED },
      multiAz: true,
      databaseName: DATABASE_NAME,
      credentials: rds.Credentials.fromGeneratedSecret('divilo'),
      allocatedStorage: 20,
      maxAllocatedStorage: 100,
      storageEncrypted: true,
      backupRetention: Duration.days(14),
      // The automated backups outlive the instance (for their 14 days): it can be restored to a point in time even
      // once deleted.
      deleteAutomatedBackups: false,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.SNAPSHOT,
      parameterGroup: databaseParameters,
    });
    database.connections.allowDefaultPortFrom(serverSg, 'the servers');
    // Its credentials outlive the stack with its final snapshot, whose password they are.
    (database.node.findChild('Secret') as rds.DatabaseSecret).applyRemovalPolicy(RemovalPolicy.RETAIN);
    const ownDatabase = new CfnCondition(this, 'OwnDatabase', { expression: Fn.conditionEquals(databaseEndpoint, '') });
    const databaseHost = Fn.conditionIf(ownDatabase.logicalId, Fn.join(':', [database.dbInstanceEndpointAddress, database.dbInstanceEndpointPort]), databaseEndpoint).toString();

    // Every secret is kept when the stack is deleted, as the pools, the bucket and the database snapshot they
    // protect are: a stack restored from those reads them again (docs/deploy.md, "Restore").
    // Redis: the rate-limit counters every server shares. TLS and an AUTH token; no data worth a backup.
    const redisToken = new secrets.Secret(this, 'RedisToken', { generateSecretString: { passwordLength: 48, excludePunctuation: true }, removalPolicy: RemovalPolicy.RETAIN });
    const redisSg = new ec2.SecurityGroup(this, 'RedisSecurityGroup', { vpc, description: 'Rate-limit counters', allowAllOutbound: false });
    redisSg.addIngressRule(serverSg, ec2.Port.tcp(6379), 'the servers');
    const redisSubnets = new elasticache.CfnSubnetGroup(this, 'RedisSubnets', {
      description: 'Rate-limit counters',
      subnetIds: vpc.selectSubnets({ subnetType: ec2.SubnetType.PRIVATE_ISOLATED }).subnetIds,
    });
    const redis = new elasticache.CfnReplicationGroup(this, 'Redis', {
      replicationGroupDescription: 'Onboarding rate-limit counters',
      engine: 'redis',
      cacheNodeType: 'cache.t4g.micro',
      numCacheClusters: 2,
      automaticFailoverEnabled: true,
      multiAzEnabled: true,
      transitEncryptionEnabled: true,
      atRestEncryptionEnabled: true,
      authToken: redisToken.secretValue.unsafeUnwrap(),
      cacheSubnetGroupName: redisSubnets.ref,
      securityGroupIds: [redisSg.securityGroupId],
    });

    // Generated here; the others are the bank's and are put in after the first deployment (docs/deploy.md).
    const serverSecret = new secrets.Secret(this, 'ServerSecret', {
      description: "SERVER_SECRET: the root of the server's keys (64 base64 characters = 48 bytes)",
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    const bankSecret = (name: string, description: string) => new secrets.Secret(this, name, { description, removalPolicy: RemovalPolicy.RETAIN });
    const smtpUrl = bankSecret('SmtpUrl', 'SMTP_URL: smtps://<SES SMTP user>:<password>@email-smtp.<region>.amazonaws.com:465');
    const sealP12 = bankSecret('SealP12', "SEAL_P12_BASE64: the contracts' sealing certificate (PKCS#12), in base64");
    const sealPassphrase = bankSecret('SealP12Passphrase', "SEAL_P12_PASSPHRASE: the sealing certificate's passphrase");
    // Generated; handed to the identity provider when IdentityProvider is webhook, unused with manual review.
    const webhookSecret = new secrets.Secret(this, 'IdentityWebhookSecret', {
      description: 'IDENTITY_WEBHOOK_SECRET: the key the identity provider signs its webhook calls with (HMAC-SHA256)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const role = serverRole(this, {
      userPoolId: identity.userPool.userPoolId,
      staffUserPoolId: identity.staffPool.userPoolId,
      identityPoolId: identity.identityPool.ref,
      bucket: documents.bucket.bucketName,
    });
    // The admin is reached with ECS Exec into a running server, or as a one-off task (docs/deploy.md, deploy/admin.sh).
    const execSessions = new ExecSessions(this, 'ExecSessions');
    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED, executeCommandConfiguration: execSessions.clusterConfiguration });
    const serverLogs = new logs.LogGroup(this, 'ServerLogs', { retention: logs.RetentionDays.ONE_YEAR, removalPolicy: RemovalPolicy.RETAIN });
    const service = new patterns.ApplicationLoadBalancedFargateService(this, 'Server', {
      cluster,
      desiredCount: serverCount,
      cpu: 512,
      memoryLimitMiB: 1024,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.X86_64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
      securityGroups: [serverSg],
      taskSubnets: { subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS },
      publicLoadBalancer: true,
      certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', certificateArn),
      redirectHTTP: true,
      sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
      circuitBreaker: { rollback: true },
      minHealthyPercent: 100,
      healthCheckGracePeriod: Duration.seconds(60),
      enableExecuteCommand: true,
      taskImageOptions: {
        image: ecs.ContainerImage.fromEcrRepository(ecr.Repository.fromRepositoryName(this, 'Images', imageRepository), imageTag),
        containerPort: SERVER_PORT,
        // Nothing is added to the role behind its back: the exec channel's permissions are a policy of their own, below.
        taskRole: role.withoutPolicyUpdates(),
        logDriver: ecs.LogDrivers.awsLogs({ streamPrefix: SERVER_LOG_STREAM_PREFIX, logGroup: serverLogs }),
        environment: {
          NODE_ENV: 'production',
          PORT: String(SERVER_PORT),
          PUBLIC_URL: publicUrl,
          // One load balancer in front: only its X-Forwarded-For entry is trusted.
          TRUST_PROXY: '1',
          AWS_REGION: Aws.REGION,
          COGNITO_USER_POOL_ID: identity.userPool.userPoolId,
          COGNITO_CLIENT_ID: identity.client.userPoolClientId,
          COGNITO_IDENTITY_POOL_ID: identity.identityPool.ref,
          COGNITO_DEVELOPER_PROVIDER: DEVELOPER_PROVIDER,
          // The back office's sign-in (docs/back-office.md).
          STAFF_USER_POOL_ID: identity.staffPool.userPoolId,
          STAFF_CLIENT_ID: identity.staffClient.userPoolClientId,
          S3_BUCKET: documents.bucket.bucketName,
          // User and password come from the database's secret as PGUSER and PGPASSWORD, which pg reads itself.
          DATABASE_URL: `postgres://${databaseHost}/${DATABASE_NAME}?sslmode=verify-full`,
          REDIS_HOST: redis.attrPrimaryEndPointAddress,
          REDIS_PORT: redis.attrPrimaryEndPointPort,
          SMS_PROVIDER: 'sns',
          SMS_SENDER: smsSender,
          SMS_ORIGINATION_NUMBER: smsOriginationNumber,
          SMS_MAX_PRICE_USD: smsMaxPriceUsd,
          MAIL_FROM: mailFrom,
          IDENTITY_PROVIDER: identityProvider,
          // The bank's contract templates, put into the image when it is built (docs/deploy.md).
          CONTRACT_TEMPLATES_DIR: CONTRACT_TEMPLATES_IN_IMAGE,
          DATA_DIR: '/tmp/divilo',
        },
        secrets: {
          SERVER_SECRET: ecs.Secret.fromSecretsManager(serverSecret),
          PGUSER: ecs.Secret.fromSecretsManager(database.secret!, 'username'),
          PGPASSWORD: ecs.Secret.fromSecretsManager(database.secret!, 'password'),
          REDIS_AUTH_TOKEN: ecs.Secret.fromSecretsManager(redisToken),
          SMTP_URL: ecs.Secret.fromSecretsManager(smtpUrl),
          SEAL_P12_BASE64: ecs.Secret.fromSecretsManager(sealP12),
          SEAL_P12_PASSPHRASE: ecs.Secret.fromSecretsManager(sealPassphrase),
          IDENTITY_WEBHOOK_SECRET: ecs.Secret.fromSecretsManager(webhookSecret),
        },
      },
    });
    service.targetGroup.configureHealthCheck({ path: '/health', healthyHttpCodes: '200', interval: Duration.seconds(15), timeout: Duration.seconds(5) });
    // ECS sends SIGTERM once the load balancer has drained the task (15 s at most); the server then finishes what
    // is in flight within SHUTDOWN_GRACE_SECONDS (25 s), under the stop timeout after which ECS kills it (docs/server.md).
    service.targetGroup.setAttribute('deregistration_delay.timeout_seconds', '15');
    (service.taskDefinition.node.defaultChild as ecs.CfnTaskDefinition).addPropertyOverride('ContainerDefinitions.0.StopTimeout', 30);
    execSessions.allow(role);
    // Traces and metrics through a collector beside each server; alarms on what breaks (docs/deploy.md, "Watching it").
    new Telemetry(this, 'Telemetry', { taskDefinition: service.taskDefinition, server: service.taskDefinition.defaultContainer!, role });
    new Alarms(this, 'Alarms', {
      email: alarmEmail,
      loadBalancer: service.loadBalancer,
      targetGroup: service.targetGroup,
      serverLogs,
      preTokenGeneration: identity.preTokenGeneration,
      smsMonthlySpendUsd: smsSpendAlarm,
    });

    new CfnOutput(this, 'LoadBalancerDnsName', { value: service.loadBalancer.loadBalancerDnsName, description: "Point PublicUrl's host name here (CNAME or alias)" });
    new CfnOutput(this, 'UserPoolId', { value: identity.userPool.userPoolId });
    new CfnOutput(this, 'StaffUserPoolId', { value: identity.staffPool.userPoolId, description: 'The staff pool: its members are made with `npm run admin -- staff add` (docs/back-office.md)' });
    new CfnOutput(this, 'IdentityPoolId', { value: identity.identityPool.ref });
    new CfnOutput(this, 'DocumentsBucket', { value: documents.bucket.bucketName });
    // What deploy/admin.sh needs to reach the admin, by an ECS Exec session or as a one-off task.
    new CfnOutput(this, 'ServerCluster', { value: cluster.clusterName, description: 'The servers\' cluster: ECS Exec sessions and one-off admin tasks run there (deploy/admin.sh)' });
    new CfnOutput(this, 'ServerService', { value: service.service.serviceName, description: 'The servers\' service: an ECS Exec session opens into one of its running tasks' });
    new CfnOutput(this, 'ServerTaskDefinition', { value: service.taskDefinition.taskDefinitionArn, description: "The servers' task definition (this revision): a one-off admin task runs it with the command replaced" });
    new CfnOutput(this, 'ServerTaskFamily', { value: service.taskDefinition.family });
    new CfnOutput(this, 'ServerContainer', { value: service.taskDefinition.defaultContainer!.containerName });
    new CfnOutput(this, 'AppSubnets', { value: Fn.join(',', vpc.selectSubnets({ subnetType: ec2.SubnetType.PRIVATE_WITH_EGRESS }).subnetIds), description: "The servers' subnets, comma-separated" });
    new CfnOutput(this, 'ServerSecurityGroupId', { value: serverSg.securityGroupId });
    new CfnOutput(this, 'ServerLogGroup', { value: serverLogs.logGroupName, description: `The servers' logs (and a one-off task's), streams ${SERVER_LOG_STREAM_PREFIX}/<container>/<task id>` });
    new CfnOutput(this, 'ExecSessionLogGroup', { value: execSessions.transcripts.logGroupName, description: 'The transcripts of ECS Exec sessions' });
    // What a restore needs (docs/deploy.md, "Restore"): where a database restored beside the stack's goes.
    new CfnOutput(this, 'DatabaseInstance', { value: database.instanceIdentifier });
    new CfnOutput(this, 'DatabaseSubnetGroup', { value: (database.node.findChild('SubnetGroup') as rds.SubnetGroup).subnetGroupName });
    new CfnOutput(this, 'DatabaseSecurityGroupId', { value: database.connections.securityGroups[0].securityGroupId });
    new CfnOutput(this, 'DatabaseParameterGroup', { value: databaseParameters.bindToInstance({}).parameterGroupName });
    // The secrets the bank fills in after the first deployment (docs/deploy.md, step 7).
    for (const [name, secret] of Object.entries({ SmtpUrl: smtpUrl, SealP12: sealP12, SealP12Passphrase: sealPassphrase, IdentityWebhookSecret: webhookSecret })) {
      new CfnOutput(this, `${name}Arn`, { value: secret.secretArn });
    }
    new CfnOutput(this, 'ExecSessionKey', { value: execSessions.key.keyArn, description: 'Opening an ECS Exec session needs kms:GenerateDataKey on this key, reading a transcript kms:Decrypt' });
  }
}
