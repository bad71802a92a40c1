/**
 * What went wrong with a one-time code, from the server's stable error code: a wrong code (with the
 * attempts left), a block after too many, an expired code, or anything else.
 */
export type CodeProblem = { kind: 'wrongCode'; attemptsLeft: number } | { kind: 'blocked' | 'expired' | 'failed' };

export function codeProblem(errorCode: string | undefined, data: unknown): CodeProblem {
  switch (errorCode) {
    case 'CODE_INVALID': {
      const attemptsLeft = (data as { attemptsLeft?: unknown } | undefined)?.attemptsLeft;
      return typeof attemptsLeft === 'number' ? { kind: 'wrongCode', attemptsLeft } : { kind: 'failed' };
    }
    case 'CODE_BLOCKED':
      return { kind: 'blocked' };
    case 'CODE_EXPIRED':
      return { kind: 'expired' };
    default:
      return { kind: 'failed' };
  }
}
