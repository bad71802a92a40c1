// Log lines the alarms on AWS count (CloudWatch Logs metric filters, deploy/lib/alarms.ts): their messages are
// named once, here, so the server and the deployment cannot drift apart. Each line is pino's JSON, its numbers at
// fixed paths (docs/deploy.md, "Alarms").
export const LOG_SIGNALS = {
  /** One per housekeeping run: `housekeeping.failed`, `housekeeping.reviewQueue.*`, `housekeeping.decisionEffectsPending`. */
  housekeepingRun: 'housekeeping run',
  /** A message refused by a spent budget: `channel`, `refusedBy` (recipient, person, client, range, country, unproven or total) and `total`. */
  messageBudgetSpent: 'message budget spent: message not sent',
  /** A total message budget passed a tenth of its limit: `messageBudget.{channel, total, sent, limit, usedPercent}`. */
  messageBudgetUse: 'message budget use',
  /** The hourly sweep of uploads no application reported, failed. */
  uploadSweepFailed: 'the sweep of unreported uploads failed',
} as const;
