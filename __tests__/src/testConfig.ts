import type { RuntimeConfig } from '../../src/config';
import smsCountryList from '../../server/data/sms-countries.json';

export function testRuntimeConfig(overrides: Partial<RuntimeConfig> = {}): RuntimeConfig {
  return {
    apiBaseUrl: '/api',
    mainAppUrl: 'http://localhost:8080/app',
    supportPhone: '+34 910 000 000',
    legalLinks: {
      privacy: 'https://legal.divilo.test/privacy.pdf',
      precontract: 'https://legal.divilo.test/precontract.pdf',
      biometrics: 'https://legal.divilo.test/biometrics.pdf',
      microbusinesses: 'https://legal.divilo.test/microbusinesses.pdf',
      companies: 'https://legal.divilo.test/companies.pdf',
      selfEmployed: 'https://legal.divilo.test/self-employed.pdf',
    },
    identity: { region: 'eu-west-1', userPoolId: 'local_Divilo1', clientId: 'client', identityPoolId: 'eu-west-1:pool' },
    storage: { region: 'eu-west-1', bucket: 'divilo-documents', maxDocumentBytes: 20 * 1024 * 1024 },
    captcha: { provider: 'altcha' },
    sessionWarningSeconds: 60,
    smsCountries: smsCountryList.countries.map((country) => country.iso2),
    ...overrides,
  };
}
