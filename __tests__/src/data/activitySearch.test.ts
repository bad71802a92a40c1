// The activity search: how it ranks on a small catalogue made for the test, and on the real ones (IAE, CNAE-2025
// with the everyday words of activitySynonyms.json) for what applicants type.
import { createActivityIndex, type SearchableActivity } from '../../../src/data/activitySearch';
import { activityIndex, type SynonymEntry } from '../../../src/data/activityIndexes';
import list from '../../../src/data/activitySynonyms.json';

const CATALOGUE: SearchableActivity[] = [
  { code: 'A.10', codeForms: ['10.10', 'A10.10'], titles: ['Servicios de programación informática'] },
  { code: 'A.11', codeForms: ['10.11', 'A10.11'], titles: ['Edición de programas informáticos'] },
  { code: 'B.20', codeForms: ['20.20', 'B20.20'], titles: ['Programadores'] },
  { code: 'C.30', codeForms: ['30.30', 'C30.30'], titles: ['De un tenedor'], context: ['Servicios en restaurantes'] },
  { code: 'C.31', codeForms: ['30.31', 'C30.31'], titles: ['Restaurantes y puestos de comidas'] },
  { code: 'D.40', codeForms: ['40.40', 'D40.40'], titles: ['Fontanería'] },
  { code: 'E.50', codeForms: ['101.0', '1.101.0'], titles: ['Otros servicios'] },
];
const index = createActivityIndex(CATALOGUE, [
  { words: ['programador', 'desarrollador web', 'software'], codes: ['B.20', 'A.10'] },
  { words: ['fontanero', 'plumber'], codes: ['D.40'] },
]);

describe('createActivityIndex', () => {
  it('finds a code with or without its dots and section, before any word', () => {
    for (const typed of ['10.10', '1010', 'A10.10', 'a 10.10', ' 10.10 ']) expect(index.search(typed)[0]).toBe('A.10');
    // Then the codes it starts.
    expect(index.search('10.1')).toEqual(['A.10', 'A.11', 'E.50']);
    expect(index.search('30')).toEqual(['C.30', 'C.31']);
    // A code written as it is (dots in place) comes before one that only has the same digits.
    expect(index.search('1.101.0')).toEqual(['E.50']);
  });

  it('ranks the everyday words first, in the order of their codes, then titles with every word', () => {
    expect(index.search('programador')).toEqual(['B.20', 'A.10', 'A.11']);
    expect(index.search('software')).toEqual(['B.20', 'A.10']);
    expect(index.search('plumber')).toEqual(['D.40']);
  });

  it('matches stems and, as the word is typed, its beginning', () => {
    // "programación" is a stem of the synonyms' "programador" and of the titles.
    expect(index.search('programación')[0]).toBe('B.20');
    expect(index.search('programacion')).toEqual(['B.20', 'A.10', 'A.11']);
    expect(index.search('fontan')).toEqual(['D.40']);
    expect(index.search('FONTANERIA')).toEqual(['D.40']);
  });

  it('puts the title that has every word as typed before one that has them by stem or heading', () => {
    expect(index.search('restaurantes')).toEqual(['C.31', 'C.30']);
    expect(index.search('tenedor')).toEqual(['C.30']);
  });

  it('ignores stop words and words no activity has, and finds nothing for nonsense', () => {
    expect(index.search('el desarrollador de la web')).toEqual(['B.20', 'A.10']);
    expect(index.search('programador python')).toEqual(index.search('programador'));
    expect(index.search('zzz')).toEqual([]);
    expect(index.search('   ')).toEqual([]);
  });

  it('puts the shorter title first, keeps to the limit and breaks ties by code', () => {
    // "Otros servicios" is more nearly "servicios" than "Servicios de programación informática"; a heading comes last.
    expect(index.search('servicios')).toEqual(['E.50', 'A.10', 'C.30']);
    expect(index.search('servicios', 2)).toEqual(['E.50', 'A.10']);
    expect(index.search('10', 2)).toEqual(['A.10', 'A.11']);
  });
});

// What applicants type, and the code that must come first: IAE for a freelancer, CNAE-2025 for a company. A code
// that is the other catalogue's is left out of that catalogue's column.
const EVERYDAY: [query: string, iae: string | null, cnae: string | null][] = [
  // Computing and the digital trades
  ['software', '2.763', '62.10'],
  ['programador', '2.763', '62.10'],
  ['programadora', '2.763', '62.10'],
  ['programación', '2.763', '62.10'],
  ['programacion', '2.763', '62.10'],
  ['programming', '2.763', '62.10'],
  ['desarrollador web', '2.763', '62.10'],
  ['software developer', '2.763', '62.10'],
  ['diseño web', '2.763', '62.10'],
  ['consultor informático', '2.762', '62.20'],
  ['content creator', '1.844', '60.39'],
  ['creadores de contenido', '1.844', '60.39'],
  ['creadora de contenido', '1.844', '60.39'],
  ['influencer', '1.844', '60.39'],
  ['youtuber', '1.844', '60.39'],
  ['marketing digital', '1.844', '73.11'],
  ['diseño gráfico', '2.399', '74.12'],
  ['diseno grafico', '2.399', '74.12'],
  ['graphic designer', '2.399', '74.12'],
  ['editor de vídeo', '1.961.2', '59.12'],
  ['video editor', '1.961.2', '59.12'],
  ['fotógrafo', '1.973.1', '74.20'],
  ['photographer', '1.973.1', '74.20'],
  ['traductora', '2.774', '74.30'],
  ['translator', '2.774', '74.30'],
  ['músico', '3.032', '90.20'],
  // Professions
  ['abogado', '2.731', '69.10'],
  ['abogada', '2.731', '69.10'],
  ['lawyer', '2.731', '69.10'],
  ['contable', '1.842', '69.20'],
  ['accountant', '1.842', '69.20'],
  ['asesoría fiscal', '1.842', '69.20'],
  ['consultor', '2.799', '70.20'],
  ['consultant', '2.799', '70.20'],
  ['arquitecto', '2.411', '71.11'],
  ['architect', '2.411', '71.11'],
  ['agente inmobiliario', '1.834', '68.31'],
  ['real estate agent', '1.834', '68.31'],
  ['coach', '2.777', '70.20'],
  // Health and care
  ['fisioterapeuta', '2.836', '86.95'],
  ['physio', '2.836', '86.95'],
  ['psicóloga', '2.776', '86.93'],
  ['psychologist', '2.776', '86.93'],
  ['dentista', '2.834', '86.23'],
  ['dentist', '2.834', '86.23'],
  ['entrenador personal', '1.967.2', '85.51'],
  ['personal trainer', '1.967.2', '85.51'],
  // Trades
  ['fontanero', '1.504.2', '43.22'],
  ['fontaneria', '1.504.2', '43.22'],
  ['plumber', '1.504.2', '43.22'],
  ['electricista', '1.504.1', '43.21'],
  ['electrician', '1.504.1', '43.21'],
  ['albañil', '1.501.3', '43.91'],
  ['builder', '1.501.1', '41.01'],
  ['pintor', '1.505.6', '43.34'],
  ['painter', '1.505.6', '43.34'],
  ['carpintero', '1.505.5', '43.32'],
  ['mecánico', '1.691.2', '95.31'],
  ['mechanic', '1.691.2', '95.31'],
  ['jardinero', '1.911', '81.30'],
  ['limpieza', '1.922.1', '81.21'],
  ['cleaner', '1.922.1', '81.21'],
  // Personal services, transport, teaching
  ['peluquería', '1.972.1', '96.21'],
  ['peluqueria', '1.972.1', '96.21'],
  ['peluquera', '1.972.1', '96.21'],
  ['hairdresser', '1.972.1', '96.21'],
  ['barber', '1.972.1', '96.21'],
  ['taxi', '1.721.2', '49.33'],
  ['taxista', '1.721.2', '49.33'],
  ['taxi driver', '1.721.2', '49.33'],
  ['repartidor', '1.849.5', '53.20'],
  ['delivery rider', '1.849.5', '53.20'],
  ['profesor particular', '2.826', '85.59'],
  ['tutor', '2.826', '85.59'],
  ['clases de inglés', '2.826', '85.59'],
  // Food, drink and shops
  ['restaurante', '1.671.4', '56.11'],
  ['restaurant', '1.671.4', '56.11'],
  ['bar', '1.673.2', '56.30'],
  ['cafetería', '1.672.3', '56.30'],
  ['panadería', '1.644.1', '10.71'],
  ['tienda', '1.662.2', '47.12'],
  ['shop', '1.662.2', '47.12'],
  ['tienda online', '1.665', '47.12'],
  ['e-commerce', '1.665', '47.12'],
  ['ecommerce', '1.665', '47.12'],
  // Codes as forms write them
  ['6039', null, '60.39'],
  ['60.39', null, '60.39'],
  ['J60.39', null, '60.39'],
  ['6210', null, '62.10'],
  ['673.2', '1.673.2', null],
  ['6732', '1.673.2', null],
  ['1.673.2', '1.673.2', null],
  ['504.2', '1.504.2', null],
  ['763', '2.763', null],
];

describe('everyday queries', () => {
  const synonyms = list.entries as SynonymEntry[];
  const iae = activityIndex('iae', synonyms);
  const cnae = activityIndex('cnae', synonyms);

  it('cover both languages and both catalogues, at least 40 each', () => {
    expect(EVERYDAY.filter(([, code]) => code).length).toBeGreaterThanOrEqual(40);
    expect(EVERYDAY.filter(([, , code]) => code).length).toBeGreaterThanOrEqual(40);
  });

  it.each(EVERYDAY.filter(([, code]) => code))('IAE: "%s" ranks %s first', (query, code) => {
    expect(iae.search(query, 5)[0]).toBe(code);
  });

  it.each(EVERYDAY.filter(([, , code]) => code))('CNAE: "%s" ranks %s first', (query, _, code) => {
    expect(cnae.search(query, 5)[0]).toBe(code);
  });

  it('finds, without the everyday words, what only the titles say', () => {
    expect(activityIndex('iae', null).search('programadores')[0]).toBe('2.763');
    expect(activityIndex('cnae', null).search('computer programming')[0]).toBe('62.10');
    expect(activityIndex('cnae', null).search('software')).not.toContain('60.39');
  });
});
