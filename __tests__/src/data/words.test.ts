// Words as the activity search compares them: what applicants type on a phone (no accents, plurals, the other
// gender, the trade instead of the job) must meet the catalogues' words.
import { contentWords, indexWords, normalise, queryWords, stem } from '../../../src/data/words';

describe('normalise and the words of a text', () => {
  it('drops accents, case and apostrophes', () => {
    expect(normalise('Peluquería DISEÑO Fisioterapéuta')).toBe('peluqueria diseno fisioterapeuta');
    expect(normalise('builders’ carpentry')).toBe('builders carpentry');
  });

  it('splits on punctuation, and keeps a hyphenated word whole and in parts in the index', () => {
    expect(indexWords('Otras actividades (n.c.o.p.), e-commerce')).toEqual(['otras', 'actividades', 'n', 'c', 'o', 'p', 'ecommerce', 'e', 'commerce']);
    expect(queryWords('  E-Commerce, ¿Tienda online?')).toEqual(['ecommerce', 'tienda', 'online']);
  });

  it('leaves out stop words of both languages, unless nothing else was typed', () => {
    expect(contentWords(queryWords('creadores de contenido'))).toEqual(['creadores', 'contenido']);
    expect(contentWords(queryWords('I am a plumber'))).toEqual(['plumber']);
    expect(contentWords(queryWords('soy la peluquera del barrio'))).toEqual(['peluquera', 'barrio']);
    expect(contentWords(queryWords('a'))).toEqual(['a']);
  });
});

describe('stem', () => {
  const same = (...words: string[]) => new Set(words.map((word) => stem(normalise(word))));

  it.each([
    ['programador', 'programadores', 'programadora', 'programación', 'programacion', 'programaciones'],
    ['programming', 'programmer', 'programmers'],
    ['peluquero', 'peluquera', 'peluquería', 'peluquerias'],
    ['fontanero', 'fontanería', 'fontaneros'],
    ['plumber', 'plumbing', 'plumbers'],
    ['restaurante', 'restaurantes', 'restaurant', 'restaurants'],
    ['dentista', 'dental', 'dentales', 'dentist', 'dentistry'],
    ['electricista', 'eléctrico', 'eléctrica', 'electricidad', 'electrician', 'electrical', 'electricity'],
    ['fotógrafo', 'fotografía', 'fotográficos'],
    ['photographer', 'photography'],
    ['traductor', 'traducción', 'traductores'],
    ['translator', 'translation'],
    ['fisioterapeuta', 'fisioterapia'],
    ['psicólogo', 'psicóloga', 'psicología'],
    ['contable', 'contabilidad', 'contador'],
    ['inmobiliaria', 'inmobiliario', 'inmobiliarias'],
    ['creador', 'creadores', 'creadora'],
    ['contenido', 'contenidos'],
    ['bar', 'bares', 'bars'],
    ['limpieza', 'limpiador', 'limpiadora'],
    ['cleaner', 'cleaning'],
    ['accountant', 'accounting', 'accountancy'],
  ])('gives %s and its family one stem', (...family) => {
    expect(same(...family).size).toBe(1);
  });

  it('keeps apart words that only look alike', () => {
    expect(same('taxi', 'tax').size).toBe(2);
    expect(same('abogado', 'abono').size).toBe(2);
    expect(same('pintor', 'pinta').size).toBe(2);
    expect(same('hogar', 'hoja').size).toBe(2);
  });

  it('leaves codes and short words alone', () => {
    expect(stem('6039')).toBe('6039');
    expect(stem('bar')).toBe('bar');
    expect(stem('taxi')).toBe('taxi');
  });
});
