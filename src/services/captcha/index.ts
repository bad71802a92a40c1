/**
 * The invisible captcha: `execute(action)` answers a token the server verifies. Which provider runs is
 * configuration (`captcha.provider` in /config.json); screens get the client from `useCaptcha()`.
 */
export interface CaptchaClient {
  execute(action: string): Promise<string>;
}

export { CaptchaProvider, useCaptcha } from './CaptchaProvider';
