// The sample legal documents on the embedded default: every link the app shows answers a PDF that says it is
// a sample, in both languages; a LEGAL_BASE_URL elsewhere turns them off.
import { PDFDocument } from 'pdf-lib';
import { inflateSync } from 'node:zlib';
import { buildTestApp } from './helpers';

const textOf = (pdf: Buffer) => {
  // The page streams, inflated where compressed: enough to find the words drawn on the pages.
  const chunks: string[] = [];
  const source = pdf.toString('latin1');
  for (const match of source.matchAll(/stream\r?\n/g)) {
    const start = match.index! + match[0].length;
    const end = source.indexOf('endstream', start);
    const raw = pdf.subarray(start, end);
    try {
      chunks.push(inflateSync(raw).toString('latin1'));
    } catch {
      chunks.push(raw.toString('latin1'));
    }
  }
  // pdf-lib writes each line as a hex string: `<4D55…> Tj`.
  return chunks.join('\n').replace(/<([0-9A-Fa-f]+)>/g, (_, hex: string) => Buffer.from(hex, 'hex').toString('latin1'));
};

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
        const text = textOf(pdf);
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
