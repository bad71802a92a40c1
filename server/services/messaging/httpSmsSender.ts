// The generic HTTP SMS sender: the contract a provider must meet is written in docs/server.md ("The generic HTTP
// SMS sender"), and this file does exactly that. Change one, change the other.
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { maskPhone, type MessageSender, type OutgoingMessage } from './types';

interface HttpSmsOptions {
  /** The provider's send endpoint. */
  url: string;
  apiKey: string;
  /** The sender name the phone shows (`from`). */
  sender: string;
  log: FastifyBaseLogger;
  /** How long one attempt may take, answer included (3 s). */
  timeoutMs?: number;
  /** Waits before a retry (tests pass one that records the waits instead of sleeping). */
  wait?: (ms: number) => Promise<void>;
}

/** Three attempts in all, the second after 250 ms, the third after 1 s: about ten seconds at worst. */
const BACKOFF_MS = [250, 1_000];
/** A provider's Retry-After is followed up to this; asked to wait longer, the message is not sent. */
const MAX_RETRY_AFTER_MS = 2_000;
const TIMEOUT_MS = 3_000;

/** What one attempt came to: sent (with the provider's id), worth another attempt, or final. */
type Outcome = { sent: true; id: string } | { sent: false; retry: boolean; retryAfterMs?: number; why: string };

function retryAfter(header: string | null): number | undefined {
  return header !== null && /^\d{1,4}$/.test(header.trim()) ? Number(header.trim()) * 1000 : undefined;
}

/** The provider's id from a 2xx answer's JSON `{ "id": "…" }`, or undefined when it has none. */
async function providerId(response: Response): Promise<string | undefined> {
  const body = (await response.json().catch(() => undefined)) as { id?: unknown } | undefined;
  return typeof body?.id === 'string' && body.id.length > 0 && body.id.length <= 200 ? body.id : undefined;
}

async function attempt(options: HttpSmsOptions, message: OutgoingMessage, idempotencyKey: string): Promise<Outcome> {
  let response: Response;
  try {
    response = await fetch(options.url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.apiKey}`,
        'content-type': 'application/json; charset=utf-8',
        accept: 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify({ to: message.to, from: options.sender, text: message.text }),
      // A redirect would carry the key to another address: the contract has none.
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
    });
  } catch (error) {
    // No answer (refused, reset, timed out): the message may or may not have arrived, and the key makes a retry safe.
    // (The timeout's DOMException is not always an `instanceof Error` of this realm: its name is what counts.)
    const why = (error as { name?: unknown }).name === 'TimeoutError' ? 'no answer in time' : 'no answer';
    return { sent: false, retry: true, why };
  }
  const status = response.status;
  if (status >= 200 && status < 300) {
    const id = await providerId(response);
    // Taken, but said nothing the contract asks for: not retried, since a provider ignoring the contract may ignore the key too.
    return id === undefined ? { sent: false, retry: false, why: `answered ${status} without an id` } : { sent: true, id };
  }
  await response.body?.cancel();
  if (status === 408 || status === 429 || status >= 500) return { sent: false, retry: true, retryAfterMs: retryAfter(response.headers.get('retry-after')), why: `answered ${status}` };
  return { sent: false, retry: false, why: `answered ${status}` };
}

/**
 * SMS through an HTTP provider that follows the contract of docs/server.md: a JSON POST with a bearer key and an
 * idempotency key, sent only on a 2xx answer with an id, retried on 408, 429, 5xx and no answer. The text (it holds
 * the code) goes only into the request body: never into an error or a log line.
 */
export function httpSmsSender(options: HttpSmsOptions): MessageSender {
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    async send(message: OutgoingMessage) {
      if (message.channel !== 'sms') throw new Error(`The SMS sender cannot send ${message.channel}`);
      const to = maskPhone(message.to);
      const idempotencyKey = randomUUID();
      for (let number = 1; ; number++) {
        const outcome = await attempt(options, message, idempotencyKey);
        if (outcome.sent) {
          options.log.info({ channel: 'sms', purpose: message.purpose, to, providerId: outcome.id, attempts: number }, 'SMS handed to the provider');
          return;
        }
        options.log.warn({ channel: 'sms', purpose: message.purpose, to, attempt: number, outcome: outcome.why }, 'SMS provider attempt failed');
        const backoff = BACKOFF_MS[number - 1];
        if (!outcome.retry || backoff === undefined) throw new Error(`SMS not sent to ${to}: the provider ${outcome.why} (attempt ${number})`);
        if (outcome.retryAfterMs !== undefined && outcome.retryAfterMs > MAX_RETRY_AFTER_MS) {
          throw new Error(`SMS not sent to ${to}: the provider ${outcome.why} and asked to wait ${outcome.retryAfterMs / 1000} s (attempt ${number})`);
        }
        await wait(outcome.retryAfterMs ?? backoff);
      }
    },
  };
}
