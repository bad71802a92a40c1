// `npm run admin -- export …` and `npm run admin -- erasure-request …`: a person's requests about their data
// (docs/back-office.md, "A person's access or erasure request"), answered with the services the back office uses.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import type { ApplicationExpiryDependencies } from '../server/services/housekeeping';
import { answerDue, answerErasureRequest, ErasureRequestError, outcomeLine } from '../server/services/erasureRequests';
import { EXPORT_JSON, exportPersonalData, PersonalDataNotFound, type PersonalDataDependencies } from '../server/services/personalDataExport';

/** What the two commands need beside the review's: the documents' storage, the sign-in users' pool, the texts. */
export type PrivacyDependencies = PersonalDataDependencies & ApplicationExpiryDependencies;

/** A refusal told to the operator in one line. */
export class PrivacyError extends Error {}

/** Writes the export into `folder`, which must not exist yet (nothing of another person's is ever overwritten). */
function writeExport(folder: string, json: unknown, files: { path: string; bytes: Buffer }[]): void {
  try {
    mkdirSync(folder, { mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw new PrivacyError(`${folder} exists already: name a new folder`);
    if (code === 'ENOENT') throw new PrivacyError(`${path.dirname(folder)} does not exist: name a new folder in an existing one`);
    throw error;
  }
  writeFileSync(path.join(folder, EXPORT_JSON), JSON.stringify(json, null, 2), { flag: 'wx', mode: 0o600 });
  for (const file of files) {
    const target = path.join(folder, ...file.path.split('/'));
    mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
    writeFileSync(target, file.bytes, { flag: 'wx', mode: 0o600 });
  }
}

export function addPrivacyCommands(
  program: Command,
  run: (action: (d: PrivacyDependencies) => Promise<void>) => Promise<void>,
  { out, operator }: { out: (line: string) => void; operator: () => string },
): void {
  const refusedPlainly = async <T>(work: Promise<T>): Promise<T> => {
    try {
      return await work;
    } catch (error) {
      if (error instanceof PersonalDataNotFound || error instanceof ErasureRequestError) throw new PrivacyError(error.message);
      throw error;
    }
  };
  program
    .command('export <person> <folder>')
    .description(
      "everything held about a person (GDPR art. 15), by an application's id or their ID document number (all their applications): personal-data.json in their language and their files, written to a new folder",
    )
    .action((person: string, folder: string) =>
      run(async (d) => {
        const exported = await refusedPlainly(exportPersonalData(d, person, `admin:${operator()}`, new Date()));
        writeExport(folder, exported.data, exported.files);
        out(`Personal data of ${person} written to ${folder} (${EXPORT_JSON} and ${exported.files.length} files, in ${exported.language === 'es' ? 'Spanish' : 'English'}).`);
      }),
    );
  program
    .command('erasure-request <person>')
    .description(
      "records a person's request to erase their data (GDPR art. 17) and answers it for each of their applications: one never sent to the bank is erased at once; an approved, rejected or signed one is kept, with the legal ground recorded",
    )
    .requiredOption('--received <YYYY-MM-DD>', 'the day the request reached the bank (it is answered within a month of it)')
    .action((person: string, options: { received: string }) =>
      run(async (d) => {
        const outcomes = await refusedPlainly(answerErasureRequest(d, person, { receivedOn: options.received, actor: `admin:${operator()}` }, new Date()));
        for (const outcome of outcomes) out(outcomeLine(outcome));
        out(`Answer the person by ${answerDue(options.received)} (one month from receipt, GDPR art. 12.3).`);
      }),
    );
}
