// The CNAE-2025 list the company path offers: every class, each with its English NACE Rev. 2.1 title, and the
// Spanish divisions of a NACE class naming the class whose title they carry.
import catalogue from '../../../src/data/cnae2025.json';
import { CNAE_ACTIVITIES, cnaeTitle, isCnaeCode } from '../../../src/data/cnae';

interface Entry {
  level: string;
  code: string;
  title_es: string;
  title_en?: string;
  title_en_from?: string;
}

interface Split {
  nace: string;
  title_en: string;
  cnae: string[];
}

const entries = catalogue.items as Entry[];
const classes = entries.filter((entry) => entry.level === 'class');
const splits = catalogue.source.english_titles.national_splits.splits as Split[];
const splitByNace = new Map(splits.map((split) => [split.nace, split]));

describe('the CNAE-2025 classes', () => {
  it('are the 664 classes of the catalogue, once each, sorted by code', () => {
    const codes = CNAE_ACTIVITIES.map((activity) => activity.code);
    expect(codes).toHaveLength(664);
    expect(new Set(codes).size).toBe(664);
    expect(codes).toEqual([...classes.map((entry) => entry.code)].sort());
    expect(codes.every((code) => /^\d\d\.\d\d$/.test(code))).toBe(true);
  });

  it('all have a Spanish and an English title, and their section', () => {
    for (const entry of classes) expect(entry.title_en?.trim()).toBeTruthy();
    for (const activity of CNAE_ACTIVITIES) {
      expect(activity.titleEs.trim()).not.toBe('');
      expect(activity.titleEn.trim()).not.toBe('');
      expect(activity.titleEn).not.toBe(activity.titleEs);
      expect(activity.section).toMatch(/^[A-V]$/);
    }
  });

  it('carry the NACE Rev. 2.1 titles', () => {
    expect(CNAE_ACTIVITIES.find((activity) => activity.code === '62.10')).toEqual({
      code: '62.10',
      titleEs: 'Actividades de programación informática',
      titleEn: 'Computer programming activities',
      section: 'K',
    });
    expect(cnaeTitle('47.11', 'en')).toBe('Non-specialised retail sale of predominately food, beverages or tobacco');
    expect(cnaeTitle('01.11', 'en')).toBe('Growing of cereals, other than rice, leguminous crops and oil seeds');
    expect(cnaeTitle('01.11', 'es')).toBe('Cultivo de cereales, distintos de arroz, leguminosas y oleaginosas');
    expect(cnaeTitle('68.12', 'en')).toBe('Development of building projects');
  });

  it('have no title for what is not a class', () => {
    expect(cnaeTitle('62.1', 'en')).toBeUndefined();
    expect(cnaeTitle('10.41', 'es')).toBeUndefined();
  });
});

describe('isCnaeCode', () => {
  it('accepts the classes, Spanish divisions included', () => {
    for (const code of ['62.10', '01.11', '99.00', '10.43', '16.29', '41.01']) expect(isCnaeCode(code)).toBe(true);
  });

  it('refuses groups, divisions, sections, other spellings and the NACE classes Spain divides', () => {
    for (const code of ['62.1', '62', 'K', '6210', '62.10 ', '', '00.00', '10.41', '41.00', '59.11']) expect(isCnaeCode(code)).toBe(false);
  });
});

describe('the Spanish divisions of a NACE class', () => {
  const divided = classes.filter((entry) => entry.title_en_from !== undefined);

  it('are the 26 classes listed under 13 NACE classes in the source', () => {
    expect(splits).toHaveLength(13);
    expect(divided.map((entry) => entry.code).sort()).toEqual(splits.flatMap((split) => split.cnae).sort());
  });

  it('name a NACE class of their own group and carry its title', () => {
    const groups = new Set(entries.filter((entry) => entry.level === 'group').map((entry) => entry.code));
    for (const entry of divided) {
      const from = entry.title_en_from as string;
      expect(from).toMatch(/^\d\d\.\d\d$/);
      const split = splitByNace.get(from);
      expect(split?.cnae).toContain(entry.code);
      expect(entry.title_en).toBe(split?.title_en);
      expect(from.slice(0, 4)).toBe(entry.code.slice(0, 4));
      expect(groups.has(from.slice(0, 4))).toBe(true);
    }
  });

  it('replace that class: it is no CNAE class of its own, unless it kept its code as one of the parts (16.23)', () => {
    for (const split of splits) {
      if (isCnaeCode(split.nace)) expect(split.cnae).toContain(split.nace);
    }
    expect(splits.filter((split) => isCnaeCode(split.nace)).map((split) => split.nace)).toEqual(['16.23']);
  });

  it('show the English title of the class they come from, and say which', () => {
    const olive = CNAE_ACTIVITIES.find((activity) => activity.code === '10.43');
    expect(olive).toMatchObject({ titleEs: 'Fabricación de aceite de oliva', titleEn: 'Manufacture of oils and fats', titleEnFrom: '10.41' });
    expect(cnaeTitle('10.44', 'en')).toBe('Manufacture of oils and fats');
    expect(CNAE_ACTIVITIES.filter((activity) => activity.titleEnFrom).map((activity) => activity.code)).toEqual(divided.map((entry) => entry.code).sort());
  });
});
