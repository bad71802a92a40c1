// The JSON schemas that the wizard's private routes have in common.

/** The sign-up token, sent by every route of the area. */
export const BEARER = { type: 'object', properties: { authorization: { type: 'string', maxLength: 4096 } }, required: ['authorization'] } as const;

/** A code sent again: the seconds until the next resend. */
export const RESENT = { type: 'object', properties: { resendAfterSeconds: { type: 'integer' } }, required: ['resendAfterSeconds'] } as const;
