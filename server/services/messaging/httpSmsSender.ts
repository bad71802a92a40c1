import type { MessageSender, OutgoingMessage } from './types';

interface HttpSmsOptions {
  /** The provider's send endpoint; receives JSON { to, from, text }. */
  url: string;
  apiKey: string;
  sender: string;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/** SMS through an HTTP provider (JSON POST with a bearer key), the shape most SMS gateways accept. */
export function httpSmsSender(options: HttpSmsOptions): MessageSender {
  const fetchImpl = options.fetchImpl ?? fetch;
  return {
    async send(message: OutgoingMessage) {
      if (message.channel !== 'sms') throw new Error(`The SMS sender cannot send ${message.channel}`);
      const response = await fetchImpl(options.url, {
        method: 'POST',
        headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: message.to, from: options.sender, text: message.text }),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      // The provider's answer may echo the text: only the status goes into the error.
      if (!response.ok) throw new Error(`SMS provider answered ${response.status}`);
    },
  };
}
