// The built-in captcha's work is the bank's to set (ALTCHA_COST): each challenge the server hands out carries it,
// signed, so a browser cannot solve a cheaper one.
import { describeEachDialect } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';

describeEachDialect('the captcha challenge', (dialect) => {
  const costOf = async (api: string) => {
    const challenge = (await (await fetch(`${api}/captcha/challenge`)).json()) as { parameters: { cost: number }; signature: string };
    expect(challenge.signature).toEqual(expect.any(String));
    return challenge.parameters.cost;
  };

  it('asks the work the setting gives, and the default without it', async () => {
    for (const [env, cost] of [
      [{ ALTCHA_COST: undefined }, 50],
      [{ ALTCHA_COST: '120' }, 120],
    ] as const) {
      const server = await startLoginServerOn(dialect, env);
      try {
        expect(await costOf(server.api)).toBe(cost);
      } finally {
        await server.close();
      }
    }
  });
});
