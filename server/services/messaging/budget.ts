// What an SMS or an e-mail may cost the bank: each message is charged, before it exists, to the budgets of its
// recipient, of the person it is for, of the client address that asked for it, and to the total of its channel.
// An attacker who pumps messages (to premium numbers, to a victim's inbox) runs out of budget, not the bank.
import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditLogRepository } from '../../repositories/auditLogRepository';
import type { BudgetBucket, ChargedBucket, MessageBudgetRepository } from '../../repositories/messageBudgetRepository';
import { LOG_SIGNALS } from '../../telemetry/logSignals';
import type { ServerMetrics } from '../../telemetry/metrics';
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

interface MessageBudgetSettings {
  windowSeconds: number;
  sms: MessageBudgetLimits;
  email: MessageBudgetLimits;
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
type BucketKind = 'recipient' | 'person' | 'client' | 'total';

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
  deps: { log: FastifyBaseLogger; auditLog: AuditLogRepository; metrics?: Pick<ServerMetrics, 'budgetRefused'> },
) {
  // The table names recipients, people and addresses only by an HMAC: a copy of it lists no one.
  const keyed = (value: string) => createHmac('sha256', settings.key).update(value).digest('base64url').slice(0, 43);

  function bucketsFor(channel: Channel, to: string, requester: Requester): (BudgetBucket & { kind: BucketKind })[] {
    const limits = settings[channel];
    // The total last: every message of the channel counts there, so it is charged (and handed back) least often.
    const buckets: (BudgetBucket & { kind: BucketKind })[] = [
      { kind: 'recipient', key: `${channel}:recipient:${keyed(normalisedRecipient(channel, to))}`, limit: limits.perRecipient },
    ];
    if (requester.person) buckets.push({ kind: 'person', key: `${channel}:person:${keyed(requester.person)}`, limit: limits.perPerson });
    if (requester.clientAddress) buckets.push({ kind: 'client', key: `${channel}:client:${keyed(clientNetwork(requester.clientAddress))}`, limit: limits.perClient });
    buckets.push({ kind: 'total', key: `${channel}:total`, limit: limits.total });
    return buckets;
  }

  return {
    settings,

    /**
     * Charges one message to `to` to its budgets, or throws MessageBudgetExceeded (logged as a warning with the
     * counts, and audited) and charges none. Answers what it charged, for `refund`.
     */
    async charge(channel: Channel, to: string, purpose: OutgoingMessage['purpose'], requester: Requester): Promise<ChargedBucket[]> {
      const now = settings.clock();
      const buckets = bucketsFor(channel, to, requester);
      const result = await repository.take(buckets, settings.windowSeconds, now);
      if (result.taken) return result.charged;

      const states = new Map((await repository.read(buckets.map((bucket) => bucket.key), now)).map((state) => [state.key, state]));
      const counts = Object.fromEntries(buckets.map((bucket) => [bucket.kind, { sent: states.get(bucket.key)?.sent ?? 0, limit: bucket.limit }]));
      // Another message may go once every spent bucket's window is over.
      const waits = buckets
        .map((bucket) => states.get(bucket.key))
        .filter((state, index) => state !== undefined && state.sent >= buckets[index].limit)
        .map((state) => Math.ceil((Date.parse(state!.windowEndsAt) - now.getTime()) / 1000));
      const retryAfterSeconds = Math.max(1, ...waits);
      const refusedBy = buckets.find((bucket) => bucket.key === result.refusedBy)?.kind;
      if (refusedBy) deps.metrics?.budgetRefused(channel, refusedBy);
      deps.log.warn(
        { channel, purpose, refusedBy, counts, recipient: masked(channel, to), person: requester.person, clientAddress: requester.clientAddress, retryAfterSeconds, reqId: requester.requestId },
        LOG_SIGNALS.messageBudgetSpent,
      );
      const who = requester.person ?? `client:${requester.clientAddress ?? 'unknown'}`;
      await deps.auditLog.append(
        { actor: who, action: 'messaging.budget_exceeded', subject: who, requestId: requester.requestId, details: { channel, purpose, refusedBy, counts } },
        now,
      );
      throw new MessageBudgetExceeded(retryAfterSeconds);
    },

    /** Hands back what `charge` took for a message that was not sent: it costs no budget anything. */
    refund: (charged: ChargedBucket[]) => repository.refund(charged),
  };
}

export type MessageBudget = ReturnType<typeof messageBudget>;

/** The requester of a message an API request asks for: the person it is for, the client's address and the request. */
export function requesterOf(request: { ip: string; id: string }, person?: string): Requester {
  return { person, clientAddress: request.ip, requestId: request.id };
}
