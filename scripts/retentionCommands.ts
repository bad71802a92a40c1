// `npm run admin -- relationship-end` and `npm run admin -- retention report`: the end of a customer's relationship,
// and what the law's periods will block or delete, and when (server/services/retention.ts).
import { Command } from 'commander';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db';
import { RelationshipEndError, recordRelationshipEnd } from '../server/services/relationshipEnd';
import type { RetentionSettings } from '../server/services/retention';
import { retentionReportLines, retentionSchedule } from '../server/services/retentionSweep';

export interface RetentionCommandDependencies {
  db: Kysely<Database>;
  /**
   * The law's periods and the evidence's lock (documents.ts `retainEvidence`); absent where the commands run without
   * the documents' storage, which then refuses to record an end.
   */
  retention?: { settings: RetentionSettings; retainEvidence(applicationId: string, until: Date): Promise<unknown> };
  close(): Promise<void>;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function retentionCommands(
  deps: () => Promise<RetentionCommandDependencies>,
  { out, operator, now = () => new Date() }: { out: (line: string) => void; operator: () => string; now?: () => Date },
): Command[] {
  const withDeps = (action: (d: RetentionCommandDependencies, ...args: string[]) => Promise<void>) => async (...args: string[]) => {
    const d = await deps();
    try {
      await action(d, ...args);
    } finally {
      await d.close();
    }
  };
  const settingsOf = (d: RetentionCommandDependencies) => {
    // Only a caller that built its own dependencies without storage gets here: `reviewDependencies` always has it.
    if (!d.retention) throw new Error('these commands need the documents storage');
    return d.retention;
  };

  const relationshipEnd = new Command('relationship-end')
    .argument('<id>', "the approved customer's application")
    .description("records the last day of an approved customer's relationship with the bank: their evidence stays locked until ten years after it")
    .requiredOption('--date <YYYY-MM-DD>', 'the last day (today at the latest); recorded once, the same date again only locks again')
    .action(
      withDeps(async (d, id, options) => {
        const { date } = options as unknown as { date: string };
        const retention = settingsOf(d);
        const end = await recordRelationshipEnd({ db: d.db, retainEvidence: retention.retainEvidence, retention: retention.settings }, id, date, operator(), now());
        out(
          end.already
            ? `The relationship of application ${id} ended on ${end.endedOn} already; its evidence is locked until ${end.retainUntil}.`
            : `The relationship of application ${id} ended on ${end.endedOn}; its evidence is locked until ${end.retainUntil}.`,
        );
      }),
    );

  const retention = new Command('retention').description("the law's periods of the decided applications");
  retention
    .command('report')
    .description('what will be blocked (internal control only) or deleted, and when, with the legal ground: one line each, the soonest first')
    .option('--as-of <YYYY-MM-DD>', 'the day the report is as of (default today): events on or before it say "since" or "due"')
    .action(
      withDeps(async (d, options) => {
        const asOfText = (options as unknown as { asOf?: string }).asOf;
        if (asOfText !== undefined && (!DATE.test(asOfText) || Number.isNaN(Date.parse(`${asOfText}T00:00:00.000Z`)))) {
          throw new RelationshipEndError('INVALID_DATE', `${JSON.stringify(asOfText)} is not a date (YYYY-MM-DD)`);
        }
        const asOf = asOfText === undefined ? now() : new Date(`${asOfText}T00:00:00.000Z`);
        for (const line of retentionReportLines(await retentionSchedule(d.db, settingsOf(d).settings), asOf)) out(line);
      }),
    );
  return [relationshipEnd, retention];
}
