// The texts of the SMS the server sends, in the language the person uses the app in.

export type MessageLocale = 'es' | 'en';

/**
 * The language of a message: the first of `es`/`en` in the request's Accept-Language (the web app sends its
 * chosen language there), else Spanish, the language of the bank's customers.
 */
export function messageLocale(acceptLanguage: string | undefined): MessageLocale {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find(Boolean);
      return { language: tag.trim().slice(0, 2).toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => (entry.language === 'es' || entry.language === 'en') && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.language as MessageLocale | undefined) ?? 'es';
}

const minutes = (seconds: number) => Math.max(1, Math.round(seconds / 60));

const TEXTS = {
  login: {
    es: (code: string, ttl: number) => `Divilo: tu código para entrar es ${code}. Caduca en ${minutes(ttl)} min. No lo compartas con nadie.`,
    en: (code: string, ttl: number) => `Divilo: your sign-in code is ${code}. It expires in ${minutes(ttl)} min. Never share it with anyone.`,
  },
  recovery: {
    es: (code: string, ttl: number) => `Divilo: tu código para cambiar la contraseña es ${code}. Caduca en ${minutes(ttl)} min.`,
    en: (code: string, ttl: number) => `Divilo: your code to change your password is ${code}. It expires in ${minutes(ttl)} min.`,
  },
  phone: {
    es: (code: string, ttl: number) => `Divilo: tu código para confirmar este teléfono es ${code}. Caduca en ${minutes(ttl)} min. No lo compartas con nadie.`,
    en: (code: string, ttl: number) => `Divilo: your code to confirm this phone is ${code}. It expires in ${minutes(ttl)} min. Never share it with anyone.`,
  },
  contract: {
    es: (code: string, ttl: number) => `Divilo: tu código para firmar tu contrato es ${code}. Caduca en ${minutes(ttl)} min. No lo compartas con nadie.`,
    en: (code: string, ttl: number) => `Divilo: your code to sign your contract is ${code}. It expires in ${minutes(ttl)} min. Never share it with anyone.`,
  },
  email: {
    es: (code: string, ttl: number) => `Tu código para confirmar tu correo en Divilo es ${code}. Caduca en ${minutes(ttl)} min. Si no has pedido abrir una cuenta, ignora este mensaje.`,
    en: (code: string, ttl: number) => `Your code to confirm your e-mail with Divilo is ${code}. It expires in ${minutes(ttl)} min. If you did not ask to open an account, ignore this message.`,
  },
} as const;

/** The subject of the e-mail carrying the sign-up code. */
export const EMAIL_CODE_SUBJECT: Record<MessageLocale, string> = { es: 'Tu código de Divilo', en: 'Your Divilo code' };

/** The SMS carrying a one-time code, for `purpose`, in `locale`. */
export function codeText(purpose: keyof typeof TEXTS, locale: MessageLocale, code: string, ttlSeconds: number): string {
  return TEXTS[purpose][locale](code, ttlSeconds);
}
