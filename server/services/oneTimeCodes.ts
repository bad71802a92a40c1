import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { toDbTime } from '../db/values';
import type { OneTimeCodeRepository, OneTimeCodeRow } from '../repositories/oneTimeCodeRepository';
import { clientNetwork } from './messaging/budget';

interface OneTimeCodeSettings {
  /** Keys the stored HMAC of each code. */
  hmacKey: Buffer;
  ttlSeconds: number;
  resendSeconds: number;
  /** Wrong answers allowed; the last one blocks (PSD2: 5). */
  maxAttempts: number;
  /** How long a person is blocked after too many wrong codes. */
  lockSeconds: number;
  /**
   * Answers told from where they come (login, recovery, sign-up e-mail): wrong answers one client address may give
   * for all people together within the window before it is blocked for `lockSeconds`.
   */
  clientMaxAttempts: number;
  /**
   * Wrong answers a person may receive from every client together within the window; past it, only a client that
   * has given that person no wrong answer is still judged, so that strangers cannot lock the owner out.
   */
  personMaxAttempts: number;
  /** Codes sent for one challenge, the first included. */
  maxSends: number;
  /** Where "now" comes from when a call does not say: the server's clock. */
  clock: () => Date;
}

export type CheckResult =
  | { outcome: 'valid'; subject: string; recipient: string; answered: AnsweredChallenge }
  | { outcome: 'wrong'; attemptsLeft: number }
  | { outcome: 'blocked'; retryAfterSeconds: number }
  | { outcome: 'expired' };

/**
 * The client an answer comes from (its address, as the server sees it through its trusted proxies): given, wrong
 * answers count per person, per person and client, and per client, and a block stops that client only.
 */
export type Client = string;

/** A challenge a right answer used up, at the time it did: `reopen` gives it back when what it allowed failed. */
interface AnsweredChallenge {
  id: string;
  at: string;
}

/** A code made to be sent: `notDelivered` gives back what making it took when its message does not go. */
export interface MadeCode {
  challengeId: string;
  code: string;
  madeAt: Date;
}

/** What a code is for: wrong answers count per person and purpose. */
type Purpose = 'login' | 'recovery' | 'email' | 'phone' | 'contract';

/**
 * Who answers a challenge, for counting: one subject (a username, an application), or several that each count
 * every answer (an e-mail address and an ID document, whichever sign-up they come through).
 */
type People = string | readonly string[];

/** The keys a person counts under, each once and always in the same order (concurrent counts lock rows alike). */
const keysOf = (people: People): string[] => [...new Set(typeof people === 'string' ? [people] : people)].sort();

/** A six-digit code, uniformly drawn, leading zeros kept. */
const newCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * One-time codes: single use, expiring, with a resend cooldown, a limited number of wrong answers after
 * which the person is blocked for a while, and only an HMAC of each code stored.
 */
export function oneTimeCodes(codes: OneTimeCodeRepository, settings: OneTimeCodeSettings) {
  const { clock } = settings;
  const hash = (code: string) => createHmac('sha256', settings.hmacKey).update(code).digest('hex');
  const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);
  /** Takes a person's turn for a purpose if their cooldown is over at `now`: true for one of simultaneous callers. */
  const claimCooldown = (purpose: Purpose, subject: string, now: Date) => codes.claimCooldown(purpose, subject, later(now, settings.resendSeconds), now);
  /** Whole seconds from `now` to a stored time after it. */
  const secondsFrom = (now: Date, dbTime: string) => Math.ceil((Date.parse(dbTime) - now.getTime()) / 1000);

  const block = (purpose: Purpose, people: People, now: Date) => codes.block(purpose, keysOf(people), later(now, settings.lockSeconds));

  /**
   * Counts one judged answer of a person for a purpose under each of their keys, in one statement, and answers
   * its number within the window (the highest of the keys'): concurrent answers each get their own, so no more
   * than `maxAttempts` are ever judged. The keys are written in one order, so two answers sharing them meet on
   * the first one and count in the same order on all.
   */
  const keyed = (text: string) => createHmac('sha256', settings.hmacKey).update(text).digest('hex');
  /** The key a person's answers from one client count under (keyed, so the tables hold no address). */
  // An IPv6 client counts by its /64, as message budgets do: one host holds all of them.
  const pairKey = (person: string, client: Client) => `pair:${keyed(`pair:${person}\n${clientNetwork(client)}`)}`;
  const clientKey = (client: Client) => `client:${keyed(`client:${clientNetwork(client)}`)}`;
  /** What a client's answers to a person count and block under: the pair for each of the person's keys, and the client. */
  const clientKeys = (people: People, client: Client) => [...keysOf(people).map((person) => pairKey(person, client)), clientKey(client)].sort();

  async function countAttempt(purpose: Purpose, people: People, now: Date): Promise<number> {
    return Math.max(...(await codes.countFailure(purpose, keysOf(people), now, later(now, settings.lockSeconds))));
  }

  /** Whether `code` answers `row`; the HMAC is computed even without a challenge, so both cases take the same time. */
  function answers(row: OneTimeCodeRow | undefined, code: string): boolean {
    const given = Buffer.from(hash(code.trim()), 'hex');
    return row !== undefined && /^\d{6}$/.test(code.trim()) && timingSafeEqual(given, Buffer.from(row.code_hash, 'hex'));
  }

  /**
   * Judges an answer from `client` to `row` (none: a person without a live challenge, whose answers count all the
   * same). Every judged answer first takes its number under the person's keys, the pair (person, client) and the
   * client, in one statement. A client is refused once it gave `maxAttempts` wrong answers to that person, or
   * `clientMaxAttempts` in all; past `personMaxAttempts` wrong answers to a person, only a client that has given
   * that person none is still judged. The person's challenge is never used up by a stranger's answers: the block
   * is the client's, and the owner's right code from a clean client goes through.
   */
  async function judgeFrom(purpose: Purpose, people: People, client: Client, row: OneTimeCodeRow | undefined, code: string, now: Date): Promise<CheckResult> {
    const personKeys = keysOf(people);
    const pairs = personKeys.map((person) => pairKey(person, client));
    const address = clientKey(client);
    const counts = await codes.countFailures(purpose, [...personKeys, ...pairs, address].sort(), now, later(now, settings.lockSeconds));
    const highest = (keys: string[]) => Math.max(...keys.map((key) => counts.get(key)?.failures ?? 0));
    const pair = highest(pairs);
    const fromClient = highest([address]);
    const person = highest(personKeys);
    // The pair when the client reached its limit for this person; the client itself when it reached its own.
    const blockClient = async () => {
      await codes.block(purpose, fromClient >= settings.clientMaxAttempts ? [address] : pairs, later(now, settings.lockSeconds));
      return { outcome: 'blocked', retryAfterSeconds: settings.lockSeconds } as const;
    };
    if (pair > settings.maxAttempts || fromClient > settings.clientMaxAttempts) return blockClient();
    if (person > settings.personMaxAttempts && pair > 1) {
      // The person's window is full and this client has guessed before: refused until the window ends.
      const ends = Math.max(...personKeys.map((key) => Date.parse(counts.get(key)?.windowEndsAt ?? '')).filter(Number.isFinite));
      return { outcome: 'blocked', retryAfterSeconds: Math.max(1, Math.ceil((ends - now.getTime()) / 1000)) };
    }
    if (answers(row, code) && row) {
      if (!(await codes.consume(row.id, now))) return { outcome: 'expired' };
      await codes.clearFailures(purpose, [...personKeys, ...pairs].sort());
      // The client's number is given back, not its count cleared: its own right answers do not wipe its guesses at others.
      await codes.takeBackFailure(purpose, address);
      await codes.endCooldown(purpose, row.subject, now);
      return { outcome: 'valid', subject: row.subject, recipient: row.recipient, answered: { id: row.id, at: toDbTime(now) } };
    }
    if (row) await codes.countWrongAnswer(row.id);
    if (pair >= settings.maxAttempts || fromClient >= settings.clientMaxAttempts) return blockClient();
    return { outcome: 'wrong', attemptsLeft: Math.min(settings.maxAttempts - pair, settings.clientMaxAttempts - fromClient) };
  }

  /** Judges an answer to `row` (none: a person without a live challenge, whose answers count all the same). */
  async function judge(purpose: Purpose, people: People, row: OneTimeCodeRow | undefined, code: string, now: Date, client?: Client): Promise<CheckResult> {
    if (client !== undefined) return judgeFrom(purpose, people, client, row, code, now);
    const attempt = await countAttempt(purpose, people, now);
    if (attempt > settings.maxAttempts) {
      // Answers beyond the limit are not judged (the one that reached it blocked the person already).
      await block(purpose, people, now);
      return { outcome: 'blocked', retryAfterSeconds: settings.lockSeconds };
    }
    if (answers(row, code) && row) {
      // Only the first of two simultaneous right answers consumes the challenge.
      if (!(await codes.consume(row.id, now))) return { outcome: 'expired' };
      await codes.clearFailures(purpose, keysOf(people));
      // The code arrived: the next one (another number, a new signature) may go at once.
      await codes.endCooldown(purpose, row.subject, now);
      return { outcome: 'valid', subject: row.subject, recipient: row.recipient, answered: { id: row.id, at: toDbTime(now) } };
    }
    if (row) await codes.countWrongAnswer(row.id);
    if (attempt >= settings.maxAttempts) {
      // The block before using the challenge up, so that no answer sees a used challenge and no block.
      await block(purpose, people, now);
      if (row) await codes.useUp(row.id, now);
      return { outcome: 'blocked', retryAfterSeconds: settings.lockSeconds };
    }
    return { outcome: 'wrong', attemptsLeft: settings.maxAttempts - attempt };
  }

  return {
    settings,

    async isBlocked(purpose: Purpose, people: People, now: Date = clock(), client?: Client): Promise<boolean> {
      return (await this.blockedFor(purpose, people, now, client)) > 0;
    },

    /**
     * Seconds until a person's block for a purpose ends (the latest of their keys'); 0 when not blocked. With a
     * client, the blocks that stop that client: its own, and its pair with the person (never another client's).
     */
    async blockedFor(purpose: Purpose, people: People, now: Date = clock(), client?: Client): Promise<number> {
      const keys = client === undefined ? keysOf(people) : clientKeys(people, client);
      const until = Math.max(0, ...(await codes.blocksOn(purpose, keys, now)).map((blockedUntil) => Date.parse(blockedUntil)));
      return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
    },

    /**
     * The key a person counts under for what identifies them (an e-mail address, an ID document), whichever
     * sign-up they come through: keyed with the code key, so the tables hold no address.
     */
    personKey(kind: 'email' | 'id', value: string): string {
      return `${kind}:${createHmac('sha256', settings.hmacKey).update(`person:${kind}:${value}`).digest('hex')}`;
    },

    /**
     * Who answers a sign-up's code: its e-mail address and its ID document, each counting every wrong code and
     * each blocked, whichever sign-up they come through (a new sign-up does not start the count again).
     */
    signUpPeople(signUp: { email: string; idDocument: string }): string[] {
      return [this.personKey('email', signUp.email), this.personKey('id', signUp.idDocument)];
    },

    /**
     * A new challenge: answers the code (to send) and the token that names the challenge (to give the
     * browser). Earlier open challenges of the same person and purpose stop counting.
     */
    async issue(
      input: { purpose: Purpose; subject: string; recipient: string; sessionId?: string },
      now: Date = clock(),
    ): Promise<{ token: string; resendAfterSeconds: number } & MadeCode> {
      const token = randomBytes(32).toString('base64url');
      const code = newCode();
      await codes.useUpOpen(input.purpose, input.subject, now);
      await codes.add({
        id: hashToken(token),
        purpose: input.purpose,
        subject: input.subject,
        session_id: input.sessionId ?? null,
        recipient: input.recipient,
        code_hash: hash(code),
        attempts: 0,
        sends: 1,
        created_at: toDbTime(now),
        expires_at: toDbTime(later(now, settings.ttlSeconds)),
        resend_available_at: toDbTime(later(now, settings.resendSeconds)),
        consumed_at: null,
      });
      return { token, code, resendAfterSeconds: settings.resendSeconds, challengeId: hashToken(token), madeAt: now };
    },

    /**
     * The challenge a token names (and, when given, the browser session it was issued to), used up or not:
     * `check` then tells a used one from a blocked person.
     */
    findByToken: (token: string, sessionId?: string) => codes.find(hashToken(token), sessionId),

    /** The newest open challenge of a person for a purpose. */
    findLatest: (purpose: Purpose, subject: string) => codes.newestOpen(purpose, subject),

    /** Checks an answer to the challenge `id` (the login step's token names it); a right one uses it up. */
    async check(id: string, code: string, now: Date = clock(), client?: Client): Promise<CheckResult> {
      const row = await codes.find(id);
      if (!row) return { outcome: 'expired' };
      // Blocked first: an answer racing the one that blocked (and used up the challenge) is told so.
      const blocked = await this.blockedFor(row.purpose as Purpose, row.subject, now, client);
      if (blocked > 0) return { outcome: 'blocked', retryAfterSeconds: blocked };
      if (row.consumed_at !== null || row.expires_at <= toDbTime(now)) return { outcome: 'expired' };
      return judge(row.purpose as Purpose, row.subject, row, code, now, client);
    },

    /**
     * Checks an answer to a person's newest challenge, where the caller must not learn whether that person
     * exists (recovery): no challenge, an expired one and a wrong code all answer `wrong`, and count, under
     * `people` (default the challenge's subject).
     */
    async checkLatest(purpose: Purpose, subject: string, code: string, now: Date = clock(), people: People = subject, client?: Client): Promise<CheckResult> {
      const row = await this.findLatest(purpose, subject);
      const blocked = await this.blockedFor(purpose, people, now, client);
      if (blocked > 0) return { outcome: 'blocked', retryAfterSeconds: blocked };
      const live = row && row.expires_at > toDbTime(now) ? row : undefined;
      return judge(purpose, people, live, code, now, client);
    },

    /**
     * Whether a new code may be sent for the open challenge `id` now, changing nothing: the checks `resend`
     * makes, asked first so that the SMS is paid for only when it can go.
     */
    async resendable(
      id: string,
      now: Date = clock(),
    ): Promise<{ outcome: 'ready'; recipient: string; purpose: Purpose; subject: string } | { outcome: 'too-soon'; retryAfterSeconds: number } | { outcome: 'blocked' | 'expired' }> {
      const row = await codes.findOpen(id);
      if (!row) return { outcome: 'expired' };
      if (await this.isBlocked(row.purpose as Purpose, row.subject, now)) return { outcome: 'blocked' };
      if (row.resend_available_at > toDbTime(now)) return { outcome: 'too-soon', retryAfterSeconds: secondsFrom(now, row.resend_available_at) };
      if (row.sends >= settings.maxSends) return { outcome: 'blocked' };
      return { outcome: 'ready', recipient: row.recipient, purpose: row.purpose as Purpose, subject: row.subject };
    },

    /**
     * The turn to send a person a new code for a purpose: 0 when this caller has it and may send one code now,
     * else the seconds to wait (the cooldown of their newest open challenge, or of the last code sent to them for
     * it, unless that code was answered right). Of simultaneous asks one gets the turn, a person's first code
     * included: their cooldown moves in one conditional statement. A new challenge within the cooldown is refused
     * as a resend would be.
     */
    async claimTurn(purpose: Purpose, subject: string, now: Date = clock()): Promise<number> {
      const latest = await this.findLatest(purpose, subject);
      if (latest && latest.resend_available_at > toDbTime(now)) return secondsFrom(now, latest.resend_available_at);
      if (await claimCooldown(purpose, subject, now)) return 0;
      const endsAt = await codes.cooldownEnd(purpose, subject);
      return endsAt && endsAt > toDbTime(now) ? secondsFrom(now, endsAt) : 1;
    },

    /**
     * Seconds before a person whose challenges are all used up (a block used the last one) may have a new one:
     * the cooldown of the newest; 0 when they may.
     */
    async reissueWait(purpose: Purpose, subject: string, now: Date = clock()): Promise<number> {
      const newest = await codes.newest(purpose, subject);
      return newest && newest.resend_available_at > toDbTime(now) ? secondsFrom(now, newest.resend_available_at) : 0;
    },

    /**
     * A new challenge for a person whose last one is used up (by a block, now over): of simultaneous asks one
     * wins, the one whose conditional statement moves the newest challenge's cooldown; the others are too soon.
     * The used challenge stays used: only a new code is ever answered.
     */
    async reissue(
      input: { purpose: Purpose; subject: string; recipient: string },
      now: Date = clock(),
    ): Promise<({ outcome: 'sent'; resendAfterSeconds: number } & MadeCode) | { outcome: 'too-soon'; retryAfterSeconds: number }> {
      const newest = await codes.newest(input.purpose, input.subject);
      if (newest && !(await codes.claimReissue(newest.id, later(now, settings.resendSeconds), now))) return { outcome: 'too-soon', retryAfterSeconds: settings.resendSeconds };
      const { code, resendAfterSeconds, challengeId, madeAt } = await this.issue(input, now);
      return { outcome: 'sent', code, resendAfterSeconds, challengeId, madeAt };
    },

    /** A new code for an open challenge, once the cooldown is over; wrong answers so far still count. */
    async resend(
      id: string,
      now: Date = clock(),
    ): Promise<({ outcome: 'sent'; recipient: string; resendAfterSeconds: number } & MadeCode) | { outcome: 'too-soon'; retryAfterSeconds: number } | { outcome: 'blocked' | 'expired' }> {
      const ready = await this.resendable(id, now);
      if (ready.outcome !== 'ready') return ready;
      // The person's turn first: a new challenge asked for at the same moment (another number) cannot also send.
      if (!(await claimCooldown(ready.purpose, ready.subject, now))) return { outcome: 'too-soon', retryAfterSeconds: settings.resendSeconds };
      const code = newCode();
      // One conditional statement: two simultaneous resends cannot both pass the cooldown or the send limit.
      const sent = await codes.replaceCode(id, { codeHash: hash(code), expiresAt: later(now, settings.ttlSeconds), resendAt: later(now, settings.resendSeconds) }, settings.maxSends, now);
      if (!sent) return { outcome: 'too-soon', retryAfterSeconds: settings.resendSeconds };
      return { outcome: 'sent', code, recipient: ready.recipient, resendAfterSeconds: settings.resendSeconds, challengeId: id, madeAt: now };
    },

    /**
     * The message carrying `made` did not go: the send it counted and the waits it started are given back, so the
     * person may ask again at once (the challenge's resend wait, and their turn in the cooldown when it is still the
     * one this code took). The code stays as it is: nobody was told it, and should the provider deliver it after
     * all, it works. Each change is one conditional statement: a newer code or turn of the person is left alone.
     */
    async notDelivered(made: MadeCode, now: Date = clock()): Promise<void> {
      const row = await codes.find(made.challengeId);
      if (!row) return;
      await codes.takeBackSend(made.challengeId, hash(made.code), now);
      await codes.releaseCooldown(row.purpose, row.subject, later(made.madeAt, settings.resendSeconds), now);
    },

    /**
     * Gives a right answer's challenge back (open again, the same code) when what it was to allow could not be
     * done: the identity service unreachable at the login's last step or at a new password. The person answers
     * the same code again once it is back, within its life. Only the use that answer made is undone.
     */
    reopen: (answered: AnsweredChallenge): Promise<void> => codes.reopen(answered.id, answered.at),
  };
}

export type OneTimeCodes = ReturnType<typeof oneTimeCodes>;
