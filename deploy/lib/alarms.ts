import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { LOG_SIGNALS } from '../../server/telemetry/logSignals';

export interface AlarmsProps {
  /** Who is told: an address subscribed to the alarms' topic (it confirms the subscription once). */
  email: string;
  loadBalancer: elbv2.ApplicationLoadBalancer;
  targetGroup: elbv2.ApplicationTargetGroup;
  /** The server's log group: its structured lines are counted by metric filters. */
  serverLogs: logs.ILogGroup;
  preTokenGeneration: lambda.IFunction;
  /** The month's SMS spend (SNS, USD) that should wake someone. */
  smsMonthlySpendUsd: number;
}

/** The server's own signals, as metric filters count them from its log lines (no permission needed to publish them). */
export interface ServerSignals {
  reviewQueueOverTarget: cloudwatch.Metric;
  reviewQueueOldestWaitHours: cloudwatch.Metric;
  decisionEffectsPending: cloudwatch.Metric;
  housekeepingFailures: cloudwatch.Metric;
  messageBudgetTotalSpent: cloudwatch.Metric;
  messageBudgetUsedPercent: cloudwatch.Metric;
}

const pattern = (message: string, ...more: logs.JsonPattern[]) => logs.FilterPattern.all(logs.FilterPattern.stringValue('$.msg', '=', message), ...more);

/**
 * Everyone who must know when the product breaks is told by e-mail (an SNS topic, `AlarmEmail`), and again when it
 * is over: answers failing, answers slow, SMS money running out, a message total nearly spent, the bank's review falling behind, decisions left
 * half done, housekeeping failing, the sign-in Lambda failing. What each alarm means and what to do:
 * docs/deploy.md, "Alarms".
 */
export class Alarms extends Construct {
  readonly topic: sns.Topic;
  readonly signals: ServerSignals;

  constructor(scope: Construct, id: string, props: AlarmsProps) {
    super(scope, id);
    this.topic = new sns.Topic(this, 'Topic', { displayName: 'Divilo onboarding alarms', enforceSSL: true });
    this.topic.addSubscription(new subscriptions.EmailSubscription(props.email));
    const namespace = `Divilo/${Stack.of(this).stackName}`;

    const filter = (name: string, filterPattern: logs.IFilterPattern, metricValue: string, statistic: string, period: Duration) => {
      props.serverLogs.addMetricFilter(name, { filterPattern, metricNamespace: namespace, metricName: name, metricValue });
      return new cloudwatch.Metric({ namespace, metricName: name, statistic, period });
    };
    const housekeepingRun = pattern(LOG_SIGNALS.housekeepingRun);
    const housekeepingFailures = filter('HousekeepingFailures', housekeepingRun, '$.housekeeping.failed', 'Sum', Duration.minutes(10));
    // The hourly sweep of unreported uploads runs on its own: its failure counts in the same metric.
    props.serverLogs.addMetricFilter('UploadSweepFailures', { filterPattern: pattern(LOG_SIGNALS.uploadSweepFailed), metricNamespace: namespace, metricName: 'HousekeepingFailures', metricValue: '1' });
    this.signals = {
      // Every server runs housekeeping and reads the same queue: the highest of their figures is the queue's.
      reviewQueueOverTarget: filter('ReviewQueueOverTarget', housekeepingRun, '$.housekeeping.reviewQueue.overTarget', 'Maximum', Duration.minutes(30)),
      reviewQueueOldestWaitHours: filter('ReviewQueueOldestWaitHours', housekeepingRun, '$.housekeeping.reviewQueue.oldestWaitHours', 'Maximum', Duration.minutes(30)),
      decisionEffectsPending: filter('DecisionEffectsPending', housekeepingRun, '$.housekeeping.decisionEffectsPending', 'Maximum', Duration.minutes(10)),
      housekeepingFailures,
      messageBudgetTotalSpent: filter(
        'MessageBudgetTotalSpent',
        pattern(LOG_SIGNALS.messageBudgetSpent, logs.FilterPattern.stringValue('$.refusedBy', '=', 'total')),
        '1',
        'Sum',
        Duration.minutes(5),
      ),
      // Logged when a total passes each tenth of its limit (every replica reads the same shared count).
      messageBudgetUsedPercent: filter('MessageBudgetUsedPercent', pattern(LOG_SIGNALS.messageBudgetUse), '$.messageBudget.usedPercent', 'Maximum', Duration.minutes(5)),
    };

    const alarm = (name: string, options: cloudwatch.CreateAlarmOptions & { metric: cloudwatch.IMetric }) => {
      const made = new cloudwatch.Alarm(this, name, { treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING, ...options });
      made.addAlarmAction(new actions.SnsAction(this.topic));
      made.addOkAction(new actions.SnsAction(this.topic));
      return made;
    };
    const fiveMinutes = Duration.minutes(5);
    const requests = props.loadBalancer.metrics.requestCount({ period: fiveMinutes, statistic: 'Sum' });
    /** A share of the requests, in percent, once there are enough of them for a share to mean something (20 in 5 minutes). */
    const rateOf = (errors: cloudwatch.IMetric, label: string) =>
      new cloudwatch.MathExpression({ expression: 'IF(FILL(requests, 0) >= 20, 100 * FILL(errors, 0) / requests, 0)', usingMetrics: { requests, errors }, period: fiveMinutes, label });

    alarm('LoadBalancer5xxRate', {
      metric: rateOf(props.loadBalancer.metrics.httpCodeElb(elbv2.HttpCodeElb.ELB_5XX_COUNT, { period: fiveMinutes, statistic: 'Sum' }), 'Load balancer 5xx, % of requests'),
      threshold: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      alarmDescription: 'More than 5% of requests answered 5xx by the load balancer itself (no healthy server, servers too slow or refusing connections), twice in a row',
    });
    alarm('Server5xxRate', {
      metric: rateOf(props.targetGroup.metrics.httpCodeTarget(elbv2.HttpCodeTarget.TARGET_5XX_COUNT, { period: fiveMinutes, statistic: 'Sum' }), 'Servers 5xx, % of requests'),
      threshold: 5,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      alarmDescription: 'More than 5% of requests answered 5xx by the servers, twice in a row',
    });
    alarm('ResponseTimeP99', {
      metric: props.targetGroup.metrics.targetResponseTime({ period: fiveMinutes, statistic: 'p99' }),
      threshold: 2,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      alarmDescription: 'The slowest 1% of answers took more than 2 s, for 15 minutes',
    });
    alarm('UnhealthyServers', {
      metric: props.targetGroup.metrics.unhealthyHostCount({ period: fiveMinutes, statistic: 'Maximum' }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 2,
      alarmDescription: 'A server has failed /health (its database does not answer) for 10 minutes',
    });
    alarm('SmsSpend', {
      metric: new cloudwatch.Metric({ namespace: 'AWS/SNS', metricName: 'SMSMonthToDateSpentUSD', statistic: 'Maximum', period: Duration.hours(1) }),
      threshold: props.smsMonthlySpendUsd,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription: "This month's SMS spend passed SmsMonthlySpendAlarmUSD",
    });
    alarm('MessageBudgetTotalSpent', {
      metric: this.signals.messageBudgetTotalSpent,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription: "A channel's total message budget is spent: nobody gets an SMS or e-mail code of that channel until its window ends",
    });
    alarm('MessageBudgetNearlySpent', {
      metric: this.signals.messageBudgetUsedPercent,
      threshold: 80,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription:
        "A total message budget passed 80% of its limit in its window (the server's 'message budget use' line names which): an attack, or a busy hour the limit is too small for, before it refuses everyone",
    });
    alarm('ReviewQueueOverTarget', {
      metric: this.signals.reviewQueueOverTarget,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription: 'An application has waited for the bank longer than REVIEW_TARGET_HOURS',
    });
    alarm('DecisionEffectsPending', {
      metric: this.signals.decisionEffectsPending,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      alarmDescription: "A review decision's effects (the customer's sign-in, the e-mail) are still not done after three housekeeping runs",
    });
    alarm('HousekeepingFailures', {
      metric: this.signals.housekeepingFailures,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      alarmDescription: 'Housekeeping tasks failed in two of the last three runs',
    });
    alarm('PreTokenGenerationErrors', {
      metric: props.preTokenGeneration.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      alarmDescription: 'The pre-token-generation Lambda failed: every failure is a customer who could not sign in',
    });
  }
}
