/** A dialable number (the support phone's `tel:` link): digits and a leading +, nothing else. The server's pages use it too. */
export function phoneHref(phone: string): string {
  return phone.trim().replace(/(?!^\+)[^\d]/g, '');
}
