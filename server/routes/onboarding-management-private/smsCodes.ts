// The wizard's SMS codes (the phone's confirmation, the contract's signature): each text paid for out of the
// message budgets before its code is made, written in the request's language, and sent again the one way.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requesterOf } from '../../services/messaging/budget';
import type { MessageTicket } from '../../services/messaging/messaging';
import type { MadeCode } from '../../services/oneTimeCodes';
import { codeText, messageLocale } from '../../services/messaging/texts';
import { codeFailure, resendTooSoon } from '../codeAnswers';

/** `phone`: the mobile's confirmation; `contract`: the signature. */
type SmsPurpose = 'phone' | 'contract';
const BUDGET_PURPOSE = { phone: 'phone-code', contract: 'signature-code' } as const;

export function smsCodes(app: FastifyInstance, purpose: SmsPurpose) {
  const charge = (request: FastifyRequest, applicationId: string, phone: string) =>
    app.messages.charge({ channel: 'sms', to: phone, purpose: BUDGET_PURPOSE[purpose] }, requesterOf(request, `application:${applicationId}`));
  /** Not sent, the code's send and cooldown are given back (the route answers 503 MESSAGE_NOT_SENT): another ask goes at once. */
  const send = (request: FastifyRequest, ticket: MessageTicket, made: MadeCode) =>
    app.messages.send(ticket, { text: codeText(purpose, messageLocale(request.headers['accept-language']), made.code, app.codes.settings.ttlSeconds) }, () =>
      app.codes.notDelivered(made),
    );

  /**
   * A new code of the application's latest challenge, to the number it went to, once the cooldown is over: 423
   * CODE_BLOCKED (until when) while blocked, 410 CODE_EXPIRED with no challenge, 429 RESEND_TOO_SOON within the
   * cooldown. Its seconds to the next resend.
   */
  const resend = async (request: FastifyRequest, applicationId: string): Promise<number> => {
    // Blocked, the person is told until when (the block used up the challenge).
    const blocked = await app.codes.blockedFor(purpose, applicationId);
    if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
    const challenge = await app.codes.findLatest(purpose, applicationId);
    if (!challenge) throw codeFailure({ outcome: 'expired' });
    const ready = await app.codes.resendable(challenge.id);
    if (ready.outcome === 'too-soon') throw resendTooSoon(ready.retryAfterSeconds);
    if (ready.outcome !== 'ready') throw codeFailure(ready);
    const ticket = await charge(request, applicationId, ready.recipient);
    const result = await app.codes.resend(challenge.id);
    if (result.outcome === 'too-soon') throw resendTooSoon(result.retryAfterSeconds);
    if (result.outcome !== 'sent') throw codeFailure(result);
    await send(request, ticket, result);
    return result.resendAfterSeconds;
  };

  return { charge, send, resend };
}
