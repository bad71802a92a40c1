// The one way the server sends an SMS or an e-mail a person asked for: first `charge`, which pays for the
// message out of its budgets (or refuses it), then `send` on the ticket that charge gave. Two steps, so that a
// refused message never costs the person the code they already have: a route charges before it makes a new
// code. A provider is reached only with a paid ticket, and each ticket sends once.
import type { ServerMetrics } from '../../telemetry/metrics';
import type { MessageBudget, Requester } from './budget';
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

/** `metrics` counts what each provider took and what it did not. */
export function messaging(providers: Record<OutgoingMessage['channel'], MessageSender>, budget: MessageBudget, metrics?: Pick<ServerMetrics, 'messageSent' | 'messageFailed'>) {
  const unused = new WeakSet<MessageTicket>();
  return {
    /** Pays for one message out of its budgets; throws MessageBudgetExceeded, and charges nothing, when one is spent. */
    async charge(envelope: Envelope, requester: Requester): Promise<MessageTicket> {
      await budget.charge(envelope.channel, envelope.to, envelope.purpose, requester);
      const ticket: MessageTicket = Object.freeze({ envelope: Object.freeze({ ...envelope }) });
      unused.add(ticket);
      return ticket;
    },

    /** Sends the message a ticket paid for, to the recipient it was paid for. */
    async send(ticket: MessageTicket, content: { text: string; subject?: string }): Promise<void> {
      if (!unused.delete(ticket)) throw new Error('A message needs a ticket its budgets paid for, and a ticket sends once');
      const { channel, to, purpose } = ticket.envelope;
      try {
        await providers[channel].send({ channel, to, purpose, ...content });
      } catch (error) {
        metrics?.messageFailed(channel);
        throw error;
      }
      metrics?.messageSent(channel);
    },
  };
}

export type Messaging = ReturnType<typeof messaging>;
