// The one way the server sends an SMS or an e-mail a person asked for: first `charge`, which pays for the
// message out of its budgets (or refuses it), then `send` on the ticket that charge gave. Two steps, so that a
// refused message never costs the person the code they already have: a route charges before it makes a new
// code. A provider is reached only with a paid ticket, and each ticket sends once. A message its provider did not
// send (it failed, or took longer than SEND_TIMEOUT_MS) is given back: its budgets are refunded, the route's own
// undo runs (the code's cooldown), and the route answers `503 MESSAGE_NOT_SENT`.
import type { FastifyBaseLogger } from 'fastify';
import type { ChargedBucket } from '../../repositories/messageBudgetRepository';
import type { ServerMetrics } from '../../telemetry/metrics';
import { masked, type MessageBudget, type Requester } from './budget';
import type { MessageSender, OutgoingMessage } from './types';

/** Where a message goes and what for: fixed when it is paid for. */
export interface Envelope {
  channel: OutgoingMessage['channel'];
  to: string;
  purpose: OutgoingMessage['purpose'];
}

/** A message paid for out of its budgets, not sent yet. */
export interface MessageTicket {
  readonly envelope: Envelope;
}

/**
 * The longest a person waits on a provider before the message counts as not sent: a backstop for a provider
 * whose own time limit is longer or missing. The provider's call goes on, and may still deliver; the code it
 * carries stays valid (docs/server.md, "SMS and e-mail providers").
 */
export const SEND_TIMEOUT_MS = 10_000;
/** When the screen may try again: the provider's outage is not known to end sooner, nor later. */
export const NOT_SENT_RETRY_SECONDS = 5;

/** The provider failed or did not answer in time: nothing was charged and the person may ask again at once. */
export class MessageNotSent extends Error {
  readonly code = 'MESSAGE_NOT_SENT';
  readonly retryAfterSeconds = NOT_SENT_RETRY_SECONDS;
  constructor(options?: { cause?: unknown }) {
    super('The message could not be sent: try again in a moment', options);
    this.name = 'MessageNotSent';
  }
}

class SendTimedOut extends Error {
  constructor(milliseconds: number) {
    super(`The provider did not answer within ${milliseconds} ms`);
    this.name = 'TimeoutError';
  }
}

/** `promise`, or SendTimedOut after `milliseconds`. */
async function within<T>(promise: Promise<T>, milliseconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new SendTimedOut(milliseconds)), milliseconds);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a provider's failure may show in a log: its class and network code, never its message (it may echo the text, and the code in it). */
function failureClass(error: unknown): { errorClass: string; errorCode?: string } {
  const name = error instanceof Error ? error.name : typeof error;
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^[\w.-]{1,64}$/.test(code) ? { errorClass: name, errorCode: code } : { errorClass: name };
}

interface MessagingOptions {
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  /** Default SEND_TIMEOUT_MS. */
  sendTimeoutMs?: number;
  /** Counts what each provider took and what it did not. */
  metrics?: Pick<ServerMetrics, 'messageSent' | 'messageFailed'>;
}

export function messaging(providers: Record<OutgoingMessage['channel'], MessageSender>, budget: MessageBudget, options: MessagingOptions) {
  const unused = new WeakMap<MessageTicket, { charged: ChargedBucket[]; requester: Requester }>();
  const sendTimeoutMs = options.sendTimeoutMs ?? SEND_TIMEOUT_MS;
  return {
    budget,

    /** Pays for one message out of its budgets; throws MessageBudgetExceeded, and charges nothing, when one is spent. */
    async charge(envelope: Envelope, requester: Requester): Promise<MessageTicket> {
      const charged = await budget.charge(envelope.channel, envelope.to, envelope.purpose, requester);
      const ticket: MessageTicket = Object.freeze({ envelope: Object.freeze({ ...envelope }) });
      unused.set(ticket, { charged, requester });
      return ticket;
    },

    /**
     * Sends the message a ticket paid for, to the recipient it was paid for. When the provider fails or takes
     * longer than the send time limit: the ticket's charges are handed back, `notSent` (the route's undo: the
     * code's cooldown, a sign-up nobody can confirm) runs, the failure is logged, and MessageNotSent is thrown.
     */
    async send(ticket: MessageTicket, content: { text: string; subject?: string }, notSent?: () => Promise<unknown>): Promise<void> {
      const paid = unused.get(ticket);
      if (!paid || !unused.delete(ticket)) throw new Error('A message needs a ticket its budgets paid for, and a ticket sends once');
      const { channel, to, purpose } = ticket.envelope;
      try {
        await within(providers[channel].send({ channel, to, purpose, ...content }), sendTimeoutMs);
      } catch (error) {
        options.metrics?.messageFailed(channel);
        // Each undo on its own: one failing (the database away too) does not keep the other from running.
        const undone = await Promise.allSettled([budget.refund(paid.charged), notSent?.()]);
        const undoFailed = undone.filter((result) => result.status === 'rejected').map((result) => failureClass((result as PromiseRejectedResult).reason));
        options.log.warn(
          {
            event: 'message.not_sent',
            channel,
            purpose,
            recipient: masked(channel, to),
            ...failureClass(error),
            person: paid.requester.person,
            reqId: paid.requester.requestId,
            ...(undoFailed.length > 0 && { undoFailed }),
          },
          'message not sent: the provider failed or did not answer in time',
        );
        throw new MessageNotSent({ cause: error });
      }
      options.metrics?.messageSent(channel);
    },
  };
}

export type Messaging = ReturnType<typeof messaging>;
