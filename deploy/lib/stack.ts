import { Aws, CfnOutput, CfnParameter, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
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
import { Alarms } from './alarms';
import { DEVELOPER_PROVIDER, Identity } from './identity';
import { serverRole } from './serverRole';
import { Documents, StorageChanges } from './storage';
import { Telemetry } from './telemetry';

export interface DiviloStackProps extends StackProps {
  /** The folder `npm run build:lambdas` writes: the pre-token-generation Lambda's bundle. */
  lambdaDir: string;
}

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
    super(scope, id, props);

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
    const smsProviderUrl = new CfnParameter(this, 'SmsProviderUrl', { description: "The SMS provider's send URL (SMS_PROVIDER_URL)" }).valueAsString;
    const smsSender = new CfnParameter(this, 'SmsSender', { description: 'SMS sender name (SMS_SENDER)', default: 'Divilo' }).valueAsString;
    const mailFrom = new CfnParameter(this, 'MailFrom', { description: 'Sender of the e-mails (MAIL_FROM), a verified SES identity' }).valueAsString;
    // Who verifies applicants' identity is the bank's decision: no default, the deployment names it.
    const identityProvider = new CfnParameter(this, 'IdentityProvider', {
      description: "IDENTITY_PROVIDER: manual (the bank's reviewers look at the photos) or webhook (an identity provider answers at the webhook, signed with the IdentityWebhookSecret secret)",
      allowedValues: ['manual', 'webhook'],
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
      // One NAT gateway per zone: the servers reach Cognito, the SMS provider and SES through it, and a zone's
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
      deletionProtection: true,
      removalPolicy: RemovalPolicy.SNAPSHOT,
      // TLS only: the server connects with sslmode=verify-full.
      parameterGroup: new rds.ParameterGroup(this, 'DatabaseParameters', {
        engine: rds.DatabaseInstanceEngine.postgres({ version: rds.PostgresEngineVersion.VER_16_13 }),
        parameters: { 'rds.force_ssl': '1' },
      }),
    });
    database.connections.allowDefaultPortFrom(serverSg, 'the servers');

    // Redis: the rate-limit counters every server shares. TLS and an AUTH token; no data worth a backup.
    const redisToken = new secrets.Secret(this, 'RedisToken', { generateSecretString: { passwordLength: 48, excludePunctuation: true } });
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
    });
    const bankSecret = (name: string, description: string) => new secrets.Secret(this, name, { description });
    const smsApiKey = bankSecret('SmsProviderApiKey', "SMS_PROVIDER_API_KEY: the SMS provider's key");
    const smtpUrl = bankSecret('SmtpUrl', 'SMTP_URL: smtps://<SES SMTP user>:<password>@email-smtp.<region>.amazonaws.com:465');
    const sealP12 = bankSecret('SealP12', "SEAL_P12_BASE64: the contracts' sealing certificate (PKCS#12), in base64");
    const sealPassphrase = bankSecret('SealP12Passphrase', "SEAL_P12_PASSPHRASE: the sealing certificate's passphrase");
    // Generated; handed to the identity provider when IdentityProvider is webhook, unused with manual review.
    const webhookSecret = new secrets.Secret(this, 'IdentityWebhookSecret', {
      description: 'IDENTITY_WEBHOOK_SECRET: the key the identity provider signs its webhook calls with (HMAC-SHA256)',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });

    const role = serverRole(this, {
      userPoolId: identity.userPool.userPoolId,
      staffUserPoolId: identity.staffPool.userPoolId,
      identityPoolId: identity.identityPool.ref,
      bucket: documents.bucket.bucketName,
    });
    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.ENABLED });
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
      taskImageOptions: {
        image: ecs.ContainerImage.fromEcrRepository(ecr.Repository.fromRepositoryName(this, 'Images', imageRepository), imageTag),
        containerPort: SERVER_PORT,
        taskRole: role,
        logDriver: ecs.LogDrivers.awsLogs({ streamPrefix: 'server', logGroup: serverLogs }),
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
          DATABASE_URL: `postgres://${database.dbInstanceEndpointAddress}:${database.dbInstanceEndpointPort}/${DATABASE_NAME}?sslmode=verify-full`,
          REDIS_HOST: redis.attrPrimaryEndPointAddress,
          REDIS_PORT: redis.attrPrimaryEndPointPort,
          SMS_PROVIDER_URL: smsProviderUrl,
          SMS_SENDER: smsSender,
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
          SMS_PROVIDER_API_KEY: ecs.Secret.fromSecretsManager(smsApiKey),
          SMTP_URL: ecs.Secret.fromSecretsManager(smtpUrl),
          SEAL_P12_BASE64: ecs.Secret.fromSecretsManager(sealP12),
          SEAL_P12_PASSPHRASE: ecs.Secret.fromSecretsManager(sealPassphrase),
          IDENTITY_WEBHOOK_SECRET: ecs.Secret.fromSecretsManager(webhookSecret),
        },
      },
    });
    service.targetGroup.configureHealthCheck({ path: '/health', healthyHttpCodes: '200', interval: Duration.seconds(15), timeout: Duration.seconds(5) });
    // The server finishes requests in flight within 10 s of SIGTERM (docs/server.md).
    service.targetGroup.setAttribute('deregistration_delay.timeout_seconds', '15');
    // Traces and metrics through a collector beside each server; alarms on what breaks (docs/deploy.md, "Watching it").
    new Telemetry(this, 'Telemetry', { taskDefinition: service.taskDefinition, server: service.taskDefinition.defaultContainer! });
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
    new CfnOutput(this, 'ServerCluster', { value: cluster.clusterName, description: 'Where `npm run admin` runs as a one-off task (docs/deploy.md)' });
  }
}
