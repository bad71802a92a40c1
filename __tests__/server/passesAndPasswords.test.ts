import { captchaRepository } from '../../server/repositories/captchaRepository';
import { pendingPasswordRepository } from '../../server/repositories/pendingPasswordRepository';
import { describeEachDialect, openTestDatabase } from './helpers';

const start = new Date('2026-11-28T10:00:00.000Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describeEachDialect('captcha passes and pending passwords', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('a pass is used once among simultaneous callers, and the sweep removes only what expired', async () => {
    const captchas = captchaRepository(database.db);
    await captchas.grantPass('live', at(120));
    await captchas.grantPass('old', at(10));
    expect(await captchas.rememberSolution('solved-late', at(300))).toBe(true);
    expect(await captchas.rememberSolution('solved-early', at(10))).toBe(true);

    const uses = await Promise.all(Array.from({ length: 5 }, () => captchas.usePass('live', at(1))));
    expect(uses.filter(Boolean)).toHaveLength(1);

    await captchas.removeExpired(at(60));
    expect(await database.db.selectFrom('captcha_passes').select('session_id').execute()).toEqual([{ session_id: 'live' }]);
    expect(await database.db.selectFrom('captcha_solutions').select('signature').execute()).toEqual([{ signature: 'solved-late' }]);
    // A renewed pass is unused again.
    await captchas.grantPass('live', at(180));
    expect(await captchas.usePass('live', at(61))).toBe(true);
  });

  it('a password is taken by one caller only, and put back only when none was chosen meanwhile', async () => {
    const passwords = pendingPasswordRepository(database.db);
    await passwords.keep('application-1', 'sealed-1', start);
    const takes = await Promise.all([passwords.take('application-1'), passwords.take('application-1')]);
    const taken = takes.find((stored) => stored !== undefined)!;
    expect(takes.filter((stored) => stored !== undefined)).toHaveLength(1);
    expect(taken.sealed).toBe('sealed-1');

    await passwords.putBack('application-1', taken);
    expect((await passwords.take('application-1'))?.sealed).toBe('sealed-1');

    await passwords.keep('application-1', 'sealed-2', at(5));
    await passwords.putBack('application-1', taken);
    expect((await passwords.take('application-1'))?.sealed).toBe('sealed-2');
  });
});
