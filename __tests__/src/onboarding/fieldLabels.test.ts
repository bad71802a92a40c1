import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FIELD_LABELS } from '../../../src/onboarding/fieldLabels';
import { STEP_SCHEMAS, type AnswersStepId } from '../../../src/onboarding/stepSchemas';

const locale = (name: string) => JSON.parse(readFileSync(path.join(__dirname, `../../../locales/${name}.json`), 'utf8')) as Record<string, string>;
const screensDir = path.join(__dirname, '../../../src/features/signup');
/** Every source file of the wizard's screens, as one text: a label id the screens never show is not theirs. */
const screens = readdirSync(screensDir, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => readFileSync(path.join(screensDir, file), 'utf8'))
  .join('\n');

describe('the labels of the answers', () => {
  it.each(Object.keys(STEP_SCHEMAS) as AnswersStepId[])('%s: every field of its schema has the label its screen shows, in both languages', (step) => {
    const labels: Record<string, string> = FIELD_LABELS[step];
    const fields = Object.keys(STEP_SCHEMAS[step]({ saved: {} }).fields).filter((name) => name !== 'confirmNotServed');
    expect(Object.keys(labels).sort()).toEqual(fields.sort());
    for (const id of Object.values(labels)) {
      expect(locale('en')[id]).toEqual(expect.any(String));
      expect(locale('es')[id]).toEqual(expect.any(String));
      expect(screens).toContain(`'${id}'`);
    }
  });
});
