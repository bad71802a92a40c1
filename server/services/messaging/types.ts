/** A message to a person: an SMS to a phone or an e-mail to an address. */
export interface OutgoingMessage {
  channel: 'sms' | 'email';
  to: string;
  /** What kind of message, for the outbox and the audit log (never the code itself). */
  purpose: 'login-code' | 'recovery-code' | 'email-code' | 'phone-code' | 'signature-code' | 'notice';
  subject?: string;
  text: string;
}

/**
 * One interface for every provider: the outbox by default, real SMS and SMTP senders by configuration. Routes
 * never hold a provider: they send through the message budgets (`messaging.ts`).
 */
export interface MessageSender {
  send(message: OutgoingMessage): Promise<void>;
}

/**
 * A message's text as logs may show it: every code replaced by dots, not one digit kept (a digit shown is a
 * tenth of the guessing done for whoever reads the log).
 */
export function maskCode(text: string): string {
  return text.replace(/\b\d{4,8}\b/g, (code) => '•'.repeat(code.length));
}

/** Shows a phone number as its last three digits, as the SMS step does. */
export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  return `${'*'.repeat(Math.max(0, digits.length - 3))}${digits.slice(-3)}`;
}
