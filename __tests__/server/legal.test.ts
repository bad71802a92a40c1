// The sample legal documents on the embedded default: every link the app shows answers a PDF that says it is
// a sample, in both languages; a LEGAL_BASE_URL elsewhere turns them off.
import { PDFDocument } from 'pdf-lib';
import { buildTestApp } from './helpers';
import { pageTexts } from './pdfInspection';

const textOf = async (pdf: Buffer) => (await pageTexts(pdf)).join('\n');

describe('the sample legal documents', () => {
  it('answers a PDF marked as a sample for every link of the runtime configuration', async () => {
    const server = await buildTestApp();
    const { app } = server;
    try {
      const config = (await app.inject({ url: '/config.json' })).json() as { legalLinks: Record<string, string> };
      const links = Object.values(config.legalLinks);
      expect(links).toHaveLength(6);
      for (const link of links) {
        const response = await app.inject({ url: new URL(link).pathname });
        expect({ link, status: response.statusCode, type: response.headers['content-type'] }).toEqual({ link, status: 200, type: 'application/pdf' });
        const pdf = response.rawPayload;
        expect((await PDFDocument.load(pdf)).getTitle()).toMatch(/muestra \/ sample/);
        const text = await textOf(pdf);
        expect(text).toContain('MUESTRA');
        expect(text).toContain('SAMPLE');
      }
      expect((await app.inject({ url: '/legal/terms.pdf' })).statusCode).toBe(404);
      expect((await app.inject({ url: '/legal/privacy' })).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('is not served when the bank points LEGAL_BASE_URL at its own documents', async () => {
    const server = await buildTestApp({ LEGAL_BASE_URL: 'https://legal.bank.example/docs' });
    const { app } = server;
    try {
      expect((await app.inject({ url: '/legal/privacy.pdf' })).statusCode).toBe(404);
    } finally {
      await server.close();
    }
  });
});
