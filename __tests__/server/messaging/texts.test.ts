import { codeText, messageLocale } from '../../../server/services/messaging/texts';

describe('the language of a message', () => {
  it.each([
    [undefined, 'es'],
    ['', 'es'],
    ['en', 'en'],
    ['en-GB,en;q=0.9', 'en'],
    ['es-ES', 'es'],
    ['fr-FR, de', 'es'],
    ['fr, en;q=0.4, es;q=0.6', 'es'],
    ['es;q=0, en', 'en'],
    ['EN', 'en'],
  ])('Accept-Language %p → %p', (header, expected) => {
    expect(messageLocale(header)).toBe(expected);
  });

  it('puts the code and the minutes it lasts in the text, in each language', () => {
    expect(codeText('recovery', 'en', '123456', 300)).toBe('Divilo: your code to change your password is 123456. It expires in 5 min.');
    expect(codeText('recovery', 'es', '654321', 90)).toBe('Divilo: tu código para cambiar la contraseña es 654321. Caduca en 2 min.');
    expect(codeText('login', 'es', '111111', 20)).toContain('Caduca en 1 min.');
  });
});
