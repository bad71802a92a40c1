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

/**
 * The bank's decision as e-mailed to the applicant, in their language. A rejection gives no reason of the bank's
 * own (it keeps it), only the words of the template the reviewer chose, if any, and the number to call, the same
 * the app shows; it says what the login page will say.
 */
export function reviewNotice(decision: 'approved' | 'rejected', locale: MessageLocale, supportPhone: string, reason?: string): { subject: string; text: string } {
  if (decision === 'approved') {
    return locale === 'es'
      ? { subject: 'Tu cuenta Divilo está lista', text: 'Hemos revisado tu solicitud y tu cuenta Divilo está lista. Ya puedes entrar con tu DNI o NIE, tu contraseña y el código que te enviaremos por SMS.' }
      : { subject: 'Your Divilo account is ready', text: 'We have reviewed your application and your Divilo account is ready. You can now log in with your ID document, your password and the code we will text you.' };
  }
  return locale === 'es'
    ? {
        subject: 'Tu solicitud en Divilo',
        text: `Hemos revisado tu solicitud y no podemos abrir tu cuenta Divilo.${reason ? ` ${reason}` : ''} Esta decisión es definitiva para esta solicitud, así que no podrás entrar con tu DNI o NIE. Si tienes preguntas, llámanos al ${supportPhone}, de lunes a viernes de 9:00 a 18:00.`,
      }
    : {
        subject: 'Your Divilo application',
        text: `We have reviewed your application and cannot open your Divilo account.${reason ? ` ${reason}` : ''} This decision is final for this application, so you will not be able to log in with your ID document. If you have questions, call us on ${supportPhone}, Monday to Friday, 9:00 to 18:00.`,
      };
}

/**
 * The bank's request for more information, e-mailed in the applicant's language: its words, then how to go on
 * (sign up again with the same e-mail and ID document, which resumes the application where the bank reopened it).
 */
export function moreInfoNotice(locale: MessageLocale, text: string, resumeUrl: string, supportPhone: string): { subject: string; text: string } {
  return locale === 'es'
    ? {
        subject: 'Divilo necesita algo más para tu solicitud',
        text: `Hemos revisado tu solicitud y necesitamos que completes algunos datos.\n\n${text}\n\nPara seguir, entra en ${resumeUrl} con el mismo correo y el mismo documento de identidad: te llevaremos a lo que hay que revisar y después volverás a firmar. Si tienes preguntas, llámanos al ${supportPhone}, de lunes a viernes de 9:00 a 18:00.`,
      }
    : {
        subject: 'Divilo needs something more for your application',
        text: `We have reviewed your application and need you to complete a few details.\n\n${text}\n\nTo go on, open ${resumeUrl} with the same e-mail and ID document: we will take you to what needs checking, and you will then sign again. If you have questions, call us on ${supportPhone}, Monday to Friday, 9:00 to 18:00.`,
      };
}
