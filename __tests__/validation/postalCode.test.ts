// A postal code is refused in the words of its country: the Spanish range for a Spanish address, and a message
// that names no country for an address abroad.
import { fiscalAddressSchema } from '../../src/validation/onboarding';
import { validateSchema } from '../../src/validation/validate';

const address = (country: string, postalCode: string) => ({
  selfEmployedFiscalAddress: 'Rua Augusta 1',
  selfEmployedFiscalAdditionalAddress: '',
  selfEmployedFiscalPostalCode: postalCode,
  selfEmployedFiscalCity: 'Lisboa',
  selfEmployedFiscalCountry: country,
});

describe('the postal code of an address', () => {
  it('abroad: refused without speaking of Spain, and taken in its own format', async () => {
    expect(await validateSchema(fiscalAddressSchema, address('PT', '1100-148!'))).toEqual({ selfEmployedFiscalPostalCode: { id: 'validations.postalCodeAbroad' } });
    expect(await validateSchema(fiscalAddressSchema, address('PT', '1100-148'))).toEqual({});
  });

  it('in Spain: the Spanish range', async () => {
    expect(await validateSchema(fiscalAddressSchema, address('ES', '1100-148'))).toEqual({ selfEmployedFiscalPostalCode: { id: 'validations.postalCode' } });
    expect(await validateSchema(fiscalAddressSchema, address('ES', '60000'))).toEqual({ selfEmployedFiscalPostalCode: { id: 'validations.postalCode' } });
    expect(await validateSchema(fiscalAddressSchema, address('ES', '28013'))).toEqual({});
  });
});
