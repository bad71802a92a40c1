// The spellings people use for a CIF, a website and an amount, brought to the one form the rules check and the
// server stores; and the same rules refusing what still is no CIF, website or whole number.
import { aboutCompanyNumbersSchema, aboutCompanySchema, tellUsMoreFreelanceSchema } from '../../src/validation/onboarding';
import { normaliseCif, normaliseWebsite, normaliseWholeNumber } from '../../src/validation/normalise';
import { validateSchema } from '../../src/validation/validate';

const MORE = { countriesWhereOperate: ['ES'], diviloProduct: 'account', foundsOrigin: 'savings', assetsOrigin: 'savings', politicalPosition: false };

describe('a CIF as invoices write it', () => {
  it.each(['B58378431', 'b58378431', 'B-58378431', 'B - 58378431', 'B 58.378.431', 'B-58.378.431', 'B/58378431', ' b58378431 ', 'B.58378431'])('%s is B58378431', async (typed) => {
    expect(normaliseCif(typed)).toBe('B58378431');
    expect(await validateSchema(aboutCompanySchema, { cif: typed })).toEqual({});
  });
  it.each(['B-58378432', 'B-5837843', 'BB58378431', '58378431-B', 'B_58378431'])('%s is still refused', async (typed) => {
    expect(await validateSchema(aboutCompanySchema, { cif: typed })).toEqual({ cif: { id: 'validations.cif' } });
  });
});

describe('a website without its scheme', () => {
  it.each([
    ['www.empresa.es', 'https://www.empresa.es'],
    ['empresa.es', 'https://empresa.es'],
    ['  www.empresa.es/tienda  ', 'https://www.empresa.es/tienda'],
    ['empresa.es:8080', 'https://empresa.es:8080'],
    ['//empresa.es', 'https://empresa.es'],
    ['HTTPS://www.Empresa.es', 'https://www.Empresa.es'],
    ['http://empresa.es', 'http://empresa.es'],
    ['https://empresa.es', 'https://empresa.es'],
  ])('%s is %s, and accepted', async (typed, stored) => {
    expect(normaliseWebsite(typed)).toBe(stored);
    expect(await validateSchema(tellUsMoreFreelanceSchema, { ...MORE, website: typed })).toEqual({});
  });
  it.each(['ftp://empresa.es', 'mailto:info@empresa.es', 'empresa', 'www.empresa .es', 'javascript:alert(1)', 'https://user:pw@empresa.es'])('%s is still refused', async (typed) => {
    expect(await validateSchema(tellUsMoreFreelanceSchema, { ...MORE, website: typed })).toEqual({ website: { id: 'validations.url', values: { max: 50 } } });
  });
  it('an empty website stays empty (it is optional)', async () => {
    expect(normaliseWebsite('  ')).toBe('');
    expect(await validateSchema(tellUsMoreFreelanceSchema, { ...MORE, website: '' })).toEqual({});
  });
});

describe('a turnover as people write it', () => {
  it.each([
    ['250.000 €', '250000'],
    ['250.000€', '250000'],
    ['€250,000', '250000'],
    ['250 000', '250000'],
    ['250\u00a0000 €', '250000'],
    ['250\u202f000', '250000'],
    ["250'000", '250000'],
    ['1.000.000', '1000000'],
    ['1.000.000,00', '1000000'],
    ['1,000,000.00', '1000000'],
    ['850000', '850000'],
    ['850000 EUR', '850000'],
    ['850000 euros', '850000'],
    ['12', '12'],
    ['0', '0'],
  ])('%s is %s, and accepted', async (typed, stored) => {
    expect(normaliseWholeNumber(typed)).toBe(stored);
    expect(await validateSchema(aboutCompanyNumbersSchema, { employeeNumber: '3', bussinesVolume: typed })).toEqual({});
  });
  it.each(['12,5', '2.50', '1.000.00', '1,000.000', '1.000,000', '25.0000', '1.00.000', 'mucho', '-250.000', '250.000 $'])('%s is still not a whole amount', async (typed) => {
    const errors = await validateSchema(aboutCompanyNumbersSchema, { employeeNumber: '3', bussinesVolume: typed });
    expect(Object.keys(errors)).toEqual(['bussinesVolume']);
  });
});
