// `npm run admin -- list` and `show` as a reviewer reads them: applicants told apart by name and e-mail in a
// table that fits the terminal, and an application's audit trail from the sign-up on.
import { randomUUID } from 'node:crypto';
import { adminProgram, applicationTable, cut } from '../../../scripts/admin';
import type { ApplicationSummary } from '../../../server/services/reviews';
import { describeEachDialect } from '../helpers';
import { passCaptcha, startLoginServerOn } from '../login/loginServer';
import { reviewDependenciesOf } from '../onboarding/reviewDependencies';

const summary = (overrides: Partial<ApplicationSummary>): ApplicationSummary => ({
  id: '5f0c4a52-1d1e-4c55-9d3a-3f7f0b3c2a11',
  status: 'in-progress',
  path: 'freelance',
  risk: '-',
  step: 'tell-us-more-freelance',
  ageDays: 3,
  email: 'ana@example.com',
  name: 'Ana García',
  idShared: undefined,
  ...overrides,
});

describe('the list table', () => {
  it('cuts a long name and e-mail with … so that every line fits the terminal, and keeps the id whole', () => {
    const rows = [
      summary({}),
      summary({ id: 'b1c2', name: 'María de los Ángeles Fernández-Villaverde de la Concepción', email: 'maria.de.los.angeles.fernandez-villaverde@correo-largo.example.com', ageDays: 120 }),
    ];
    const lines = applicationTable(rows, 130);
    for (const line of lines) expect(Array.from(line.trimEnd()).length).toBeLessThanOrEqual(130);
    expect(lines[0].split(/\s+/)).toEqual(['id', 'status', 'path', 'risk', 'step', 'days', 'name', 'email']);
    const [, ana, maria] = lines.map((line) => line.trimEnd().split(/\s{2,}/));
    expect(ana).toEqual(['5f0c4a52-1d1e-4c55-9d3a-3f7f0b3c2a11', 'in-progress', 'freelance', '-', 'tell-us-more-freelance', '3', 'Ana García', 'ana@example.com']);
    expect(maria[0]).toBe('b1c2');
    expect(maria[6]).toMatch(/^María de.*…$/);
    expect(maria[7]).toMatch(/^maria\.de\.los.+…$/);
  });

  it('adds the id-shared column when applications share an ID document, still within the terminal', () => {
    const rows = [summary({ idShared: 'holds' }), summary({ id: 'b1c2', idShared: 'held-by-other', name: 'María de los Ángeles Fernández-Villaverde' })];
    const lines = applicationTable(rows, 140);
    for (const line of lines) expect(Array.from(line.trimEnd()).length).toBeLessThanOrEqual(140);
    expect(lines[0].split(/\s+/)).toEqual(['id', 'status', 'path', 'risk', 'step', 'days', 'id-shared', 'name', 'email']);
    expect(lines.map((line) => line.trimEnd().split(/\s{2,}/)[6])).toEqual(['id-shared', 'holds', 'held-by-other']);
  });

  it('shows names and e-mails whole when they fit', () => {
    const [, line] = applicationTable([summary({ name: 'Lucía Pérez Gómez', email: 'lucia.perez@example.com' })], 200);
    expect(line).toContain('Lucía Pérez Gómez');
    expect(line.trimEnd().endsWith('lucia.perez@example.com')).toBe(true);
  });

  it('cuts nothing when the output goes to a pipe or a file (no terminal width)', () => {
    const email = 'maria.de.los.angeles.fernandez-villaverde@correo-largo.example.com';
    const [, line] = applicationTable([summary({ email })], Number.POSITIVE_INFINITY);
    expect(line.endsWith(email)).toBe(true);
  });

  it('cuts by characters, not bytes', () => {
    expect(cut('Ángeles', 4)).toBe('Áng…');
    expect(cut('Ana', 3)).toBe('Ana');
  });
});

describeEachDialect('npm run admin on applications made through the API', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  let deps: ReturnType<typeof reviewDependenciesOf>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
    deps = reviewDependenciesOf(server);
  });
  afterAll(() => server.close());

  const json = { 'content-type': 'application/json' };
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    await adminProgram(async () => ({ ...deps, close: async () => undefined }), (line) => lines.push(line), 140).parseAsync(['node', 'admin', ...args]);
    return lines;
  };
  async function signUp(email: string, id: string) {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const body = { email, idType: 'nif', id, privacyPolicy: true, precontractualInformation: true, sessionId };
    const registered = (await (await fetch(`${server.api}/onboarding-management/register`, { method: 'POST', headers: json, body: JSON.stringify(body) })).json()) as { token: string };
    const row = await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const code = /\b(\d{6})\b/.exec(row.text)![1];
    const verify = (answer: string) =>
      fetch(`${server.api}/onboarding-management-private/email/verify`, { method: 'POST', headers: { ...json, authorization: `Bearer ${registered.token}` }, body: JSON.stringify({ code: answer }) });
    expect((await verify(code === '000000' ? '111111' : '000000')).status).toBe(401);
    return (await (await verify(code)).json()) as { application: { id: string } };
  }

  it('list names each applicant and their e-mail; show starts at the sign-up, with its e-mail code events', async () => {
    const { application } = await signUp(`irene-${dialect}@example.com`, '00000040V');
    const stored = (await server.app.applications.find(application.id))!;
    await server.app.applications.save(stored, { answers: { ...stored.answers, firstName: 'Irene', firstSurname: 'Solís', secondSurname: 'Mora' } }, new Date());

    const listed = (await run('list')).find((line) => line.startsWith(application.id));
    expect(listed?.split(/\s{2,}/).slice(-2)).toEqual(['Irene Solís Mora', `irene-${dialect}@example.com`]);

    const shown = JSON.parse((await run('show', application.id)).join('\n')) as { audit: { action: string; subject: string }[] };
    expect(shown.audit.map((entry) => entry.action)).toEqual(['onboarding.registered', 'onboarding.email_code_wrong', 'onboarding.application_created']);
    expect(shown.audit[0].subject).toMatch(/^registration:/);
  });

  it('show finds an application by the ID document number too, in any spelling of it', async () => {
    const made = await server.app.applications.create({ email: `nadia-${dialect}@example.com`, idDocument: 'X2600637G', answers: {}, completedSteps: [], language: 'es' }, new Date());
    const shown = JSON.parse((await run('show', ' x02600637g')).join('\n')) as { id: string };
    expect(shown.id).toBe(made.id);
    await server.app.applications.create({ email: `nadia2-${dialect}@example.com`, idDocument: 'X2600637G', answers: {}, completedSteps: [], language: 'es' }, new Date());
    await expect(run('show', 'X02600637G')).rejects.toThrow('2 applications of X2600637G');
    await expect(run('show', 'X9999999J')).rejects.toThrow('No application X9999999J');
  });
});
