import { Aws, RemovalPolicy } from 'aws-cdk-lib';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

/** The AWS Distro for OpenTelemetry collector: a pinned release, moved forward on purpose. */
export const COLLECTOR_IMAGE = 'public.ecr.aws/aws-observability/aws-otel-collector:v0.49.0';
/** Where the server sends its traces and metrics: the collector beside it, in the same task (the same network namespace). */
export const COLLECTOR_ENDPOINT = 'http://127.0.0.1:4318';

/**
 * What the collector may do with the task's role, and nothing else: write spans to X-Ray's OTLP endpoint and
 * metrics to CloudWatch's. None of these actions takes a resource narrower than `*`.
 */
export const COLLECTOR_ACTIONS = ['xray:PutSpans', 'xray:PutSpansForIndexing', 'cloudwatch:PutMetricData'];

/** The collector's configuration: OTLP in on the task's loopback only, signed (SigV4) OTLP out to CloudWatch. */
function collectorConfig(): string {
  const endpoint = (service: string, path: string) => `https://${service}.${Aws.REGION}.${Aws.URL_SUFFIX}/v1/${path}`;
  return [
    'extensions:',
    '  sigv4auth/xray: { region: ' + Aws.REGION + ', service: xray }',
    '  sigv4auth/monitoring: { region: ' + Aws.REGION + ', service: monitoring }',
    'receivers:',
    '  otlp:',
    '    protocols:',
    '      http: { endpoint: "127.0.0.1:4318" }',
    'processors:',
    '  memory_limiter: { check_interval: 1s, limit_mib: 96 }',
    // The task and container the data came from (the server names only itself).
    '  resourcedetection: { detectors: [env, ecs], timeout: 2s, override: false }',
    '  batch: { timeout: 10s }',
    'exporters:',
    `  otlphttp/traces: { traces_endpoint: "${endpoint('xray', 'traces')}", compression: gzip, auth: { authenticator: sigv4auth/xray } }`,
    `  otlphttp/metrics: { metrics_endpoint: "${endpoint('monitoring', 'metrics')}", compression: gzip, auth: { authenticator: sigv4auth/monitoring } }`,
    'service:',
    '  extensions: [sigv4auth/xray, sigv4auth/monitoring]',
    '  pipelines:',
    '    traces: { receivers: [otlp], processors: [memory_limiter, resourcedetection, batch], exporters: [otlphttp/traces] }',
    '    metrics: { receivers: [otlp], processors: [memory_limiter, resourcedetection, batch], exporters: [otlphttp/metrics] }',
    '',
  ].join('\n');
}

/**
 * Traces and metrics from each server task to CloudWatch (X-Ray's and CloudWatch's OTLP endpoints), through an
 * ADOT collector beside the server in the same task: the server sends plain OTLP to 127.0.0.1, the collector signs
 * with the task's role (OpenTelemetry's own exporters cannot sign SigV4, and a long-lived key for the bearer-token
 * variant is what a bank keeps out of containers), batches and retries off the server's event loop. The
 * collector is not essential: if it stops, the server goes on without telemetry.
 */
export class Telemetry extends Construct {
  readonly collectorLogs: logs.LogGroup;
  readonly exportPolicy: iam.Policy;

  constructor(scope: Construct, id: string, props: { taskDefinition: ecs.FargateTaskDefinition; server: ecs.ContainerDefinition; role: iam.IRole }) {
    super(scope, id);
    this.collectorLogs = new logs.LogGroup(this, 'CollectorLogs', { retention: logs.RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    props.taskDefinition.addContainer('otel-collector', {
      image: ecs.ContainerImage.fromRegistry(COLLECTOR_IMAGE),
      essential: false,
      cpu: 64,
      memoryReservationMiB: 128,
      environment: { AOT_CONFIG_CONTENT: collectorConfig() },
      logging: ecs.LogDrivers.awsLogs({ streamPrefix: 'collector', logGroup: this.collectorLogs }),
    });
    // The standard OTEL_* variables server/instrumentation.ts and the metrics reader read (docs/server.md, "Watching it").
    props.server.addEnvironment('OTEL_EXPORTER_OTLP_ENDPOINT', COLLECTOR_ENDPOINT);
    props.server.addEnvironment('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/protobuf');
    props.server.addEnvironment('OTEL_SERVICE_NAME', 'divilo-onboarding');
    // A policy of its own, beside the server's generated one: the server's calls stay exactly server/awsPermissions.ts.
    this.exportPolicy = new iam.Policy(this, 'Export', {
      statements: [new iam.PolicyStatement({ actions: COLLECTOR_ACTIONS, resources: ['*'] })],
      // The task's role itself: the task definition holds it behind withoutPolicyUpdates(), which takes no policy.
      roles: [props.role],
    });
  }
}
