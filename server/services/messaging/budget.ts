// What an SMS or an e-mail may cost the bank: each message is charged, before it exists, to the budgets of its
// recipient, of the person it is for, of the client address that asked for it, and to a total. An attacker who
// pumps messages (to premium numbers, to a victim's inbox) runs out of budget, not the bank; and the totals are
// split so that what an attacker can spend is not what a customer needs: customers' login and recovery SMS have
// a total of their own, applicants' SMS are also budgeted per number range and per country, and an e-mail address
// that never entered a code gets one e-mail an hour, counted apart from the addresses that did.
import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import type { AuditLogRepository } from '../../repositories/auditLogRepository';
import type { BudgetBucket, ChargedBucket, MessageBudgetRepository } from '../../repositories/messageBudgetRepository';
import { LOG_SIGNALS } from '../../telemetry/logSignals';
import type { BudgetKind, BudgetTotal, ServerMetrics } from '../../telemetry/metrics';
import { maskEmail } from '../onboardingApplications';
import { maskPhone, type OutgoingMessage } from './types';

/** Messages allowed per window, per bucket. */
export interface MessageBudgetLimits {
  /** To one phone number or e-mail address. */
  perRecipient: number;
  /** For one person: an application, a sign-up, or a customer logging in or recovering a password. */
  perPerson: number;
  /** Asked for from one client address (an IPv6 client by its /64). */
  perClient: number;
  /** Of the channel, everyone together. */
  total: number;
}

/** Applicants' SMS spread over many numbers: per number range and per country (calling code). */
export interface SmsSpreadLimits {
  /** Digits taken off the end of a number to name its range: 3 makes `+34612345678` part of `+34612345…`. */
  rangeHiddenDigits: number;
  perRange: number;
  rangeWindowSeconds: number;
  /** Per calling code, in the usual window: Spain's (+34), and every other's. */
  spain: number;
  perCountry: number;
}

/** E-mails to addresses that have never entered a code the bank sent them. */
export interface UnprovenEmailLimits {
  /** To one such address, per `windowSeconds`. */
  perRecipient: number;
  windowSeconds: number;
  /** To all of them together, in the usual window. */
  total: number;
}

interface MessageBudgetSettings {
  windowSeconds: number;
  /** `total` is the applicants' SMS (the wizard's phone and contract); customers have `customersTotal`. */
  sms: MessageBudgetLimits & { customersTotal: number };
  /** `total` is the e-mails to addresses that have proven themselves; the others have `unproven`. */
  email: MessageBudgetLimits;
  smsSpread: SmsSpreadLimits;
  unprovenEmail: UnprovenEmailLimits;
  /** Keys the HMAC that names recipients, people and addresses in the table. */
  key: Buffer;
  clock: () => Date;
}

/** Who asked for a message. */
export interface Requester {
  /** The person the message is for: `application:<id>`, `registration:<id>` or `user:<username>`. */
  person?: string;
  /** The client's address as the server sees it (`request.ip`). */
  clientAddress?: string;
  requestId?: string;
}

type Channel = OutgoingMessage['channel'];
type Purpose = OutgoingMessage['purpose'];

/** The SMS only a customer gets (to the phone the bank holds): charged to the customers' total, which sign-ups cannot reach. */
const CUSTOMER_PURPOSES: ReadonlySet<Purpose> = new Set(['login-code', 'recovery-code']);

type Bucket = BudgetBucket & { kind: BudgetKind; total?: BudgetTotal };

/** `+34612345678` → `34`; a number libphonenumber cannot place counts as one country, `unknown`. */
function callingCode(phone: string): string {
  return parsePhoneNumberFromString(phone)?.countryCallingCode ?? 'unknown';
}

/** A message refused because one of its budgets is spent; the answer is `429 MESSAGE_BUDGET_EXCEEDED`. */
export class MessageBudgetExceeded extends Error {
  readonly code = 'MESSAGE_BUDGET_EXCEEDED';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many messages have been sent: try again later');
  }
}

/** `2001:db8:1:2:a:b:c:d` → `2001:db8:1:2::/64`: a host is usually given a whole /64 and can move within it at will. */
export function clientNetwork(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/** The recipient as one budget counts it: an e-mail address whatever its case, a phone whatever its spacing. */
function normalisedRecipient(channel: Channel, to: string): string {
  return channel === 'email' ? to.trim().toLowerCase() : to.replace(/[^\d+]/g, '');
}

/** The recipient as logs may show it: `********678`, `a***@example.com`. */
export const masked = (channel: Channel, to: string) => (channel === 'email' ? maskEmail(to) : maskPhone(to));

export function messageBudget(
  repository: MessageBudgetRepository,
  settings: MessageBudgetSettings,
  deps: { log: FastifyBaseLogger; auditLog: AuditLogRepository; metrics?: Pick<ServerMetrics, 'budgetRefused' | 'budgetUse'> },
) {
  // The table names recipients, people and addresses only by an HMAC: a copy of it lists no one.
  const keyed = (value: string) => createHmac('sha256', settings.key).update(value).digest('base64url').slice(0, 43);
  const addressKey = (email: string) => keyed(normalisedRecipient('email', email));

  async function bucketsFor(channel: Channel, to: string, purpose: Purpose, requester: Requester): Promise<Bucket[]> {
    const limits = settings[channel];
    const recipient = normalisedRecipient(channel, to);
    // The totals last: every message of the channel counts there, so they are charged (and handed back) least often.
    const buckets: Bucket[] = [{ kind: 'recipient', key: `${channel}:recipient:${keyed(recipient)}`, limit: limits.perRecipient }];
    if (requester.person) buckets.push({ kind: 'person', key: `${channel}:person:${keyed(requester.person)}`, limit: limits.perPerson });
    if (requester.clientAddress) buckets.push({ kind: 'client', key: `${channel}:client:${keyed(clientNetwork(requester.clientAddress))}`, limit: limits.perClient });
    if (channel === 'sms' && CUSTOMER_PURPOSES.has(purpose)) {
      buckets.push({ kind: 'total', total: 'customers', key: 'sms:total:customers', limit: settings.sms.customersTotal });
    } else if (channel === 'sms') {
      const { rangeHiddenDigits, perRange, rangeWindowSeconds, spain, perCountry } = settings.smsSpread;
      const country = callingCode(recipient);
      buckets.push(
        { kind: 'range', key: `sms:range:${keyed(recipient.slice(0, -rangeHiddenDigits))}`, limit: perRange, windowSeconds: rangeWindowSeconds },
        { kind: 'country', key: `sms:country:${country}`, limit: country === '34' ? spain : perCountry },
        { kind: 'total', total: 'applicants', key: 'sms:total', limit: limits.total },
      );
    } else if (await repository.isProven(keyed(recipient))) {
      buckets.push({ kind: 'total', total: 'proven', key: 'email:total', limit: limits.total });
    } else {
      // Never proven: one e-mail an hour, so a made-up address costs one e-mail, and a total of their own.
      const unproven = settings.unprovenEmail;
      buckets.push(
        { kind: 'unproven', key: `email:unproven:${keyed(recipient)}`, limit: unproven.perRecipient, windowSeconds: unproven.windowSeconds },
        { kind: 'total', total: 'unproven', key: 'email:total:unproven', limit: unproven.total },
      );
    }
    return buckets;
  }

  /** Each total's use, as a gauge; and a log line each time it passes a tenth of its limit (the alarms count those). */
  function reportUse(channel: Channel, buckets: Bucket[], charged: ChargedBucket[]) {
    for (const bucket of buckets) {
      if (!bucket.total) continue;
      const sent = charged.find((entry) => entry.key === bucket.key)?.sent;
      if (sent === undefined) continue;
      const usedPercent = Math.floor((100 * sent) / bucket.limit);
      deps.metrics?.budgetUse(channel, bucket.total, usedPercent);
      if (Math.floor((10 * sent) / bucket.limit) > Math.floor((10 * (sent - 1)) / bucket.limit)) {
        deps.log.info({ messageBudget: { channel, total: bucket.total, sent, limit: bucket.limit, usedPercent } }, LOG_SIGNALS.messageBudgetUse);
      }
    }
  }

  return {
    settings,

    /**
     * Charges one message to `to` to its budgets, or throws MessageBudgetExceeded (logged as a warning with the
     * counts, and audited) and charges none. Answers what it charged, for `refund`.
     */
    async charge(channel: Channel, to: string, purpose: Purpose, requester: Requester): Promise<ChargedBucket[]> {
      const now = settings.clock();
      const buckets = await bucketsFor(channel, to, purpose, requester);
      const result = await repository.take(buckets, settings.windowSeconds, now);
      if (result.taken) {
        reportUse(channel, buckets, result.charged);
        return result.charged;
      }

      const states = new Map((await repository.read(buckets.map((bucket) => bucket.key), now)).map((state) => [state.key, state]));
      const counts = Object.fromEntries(buckets.map((bucket) => [bucket.kind, { sent: states.get(bucket.key)?.sent ?? 0, limit: bucket.limit }]));
      // Another message may go once every spent bucket's window is over.
      const waits = buckets
        .map((bucket) => states.get(bucket.key))
        .filter((state, index) => state !== undefined && state.sent >= buckets[index].limit)
        .map((state) => Math.ceil((Date.parse(state!.windowEndsAt) - now.getTime()) / 1000));
      const retryAfterSeconds = Math.max(1, ...waits);
      const refusing = buckets.find((bucket) => bucket.key === result.refusedBy);
      const refusedBy = refusing?.kind;
      if (refusedBy) deps.metrics?.budgetRefused(channel, refusedBy);
      deps.log.warn(
        { channel, purpose, refusedBy, total: refusing?.total, counts, recipient: masked(channel, to), person: requester.person, clientAddress: requester.clientAddress, retryAfterSeconds, reqId: requester.requestId },
        LOG_SIGNALS.messageBudgetSpent,
      );
      const who = requester.person ?? `client:${requester.clientAddress ?? 'unknown'}`;
      await deps.auditLog.append(
        { actor: who, action: 'messaging.budget_exceeded', subject: who, requestId: requester.requestId, details: { channel, purpose, refusedBy, counts } },
        now,
      );
      throw new MessageBudgetExceeded(retryAfterSeconds);
    },

    /** The address entered a code the bank sent it: from now on its e-mails count as real attempts. */
    emailProven: (email: string) => repository.markProven(addressKey(email), settings.clock()),

    /** Hands back what `charge` took for a message that was not sent: it costs no budget anything. */
    refund: (charged: ChargedBucket[]) => repository.refund(charged),
  };
}

export type MessageBudget = ReturnType<typeof messageBudget>;

/** The requester of a message an API request asks for: the person it is for, the client's address and the request. */
export function requesterOf(request: { ip: string; id: string }, person?: string): Requester {
  return { person, clientAddress: request.ip, requestId: request.id };
}
