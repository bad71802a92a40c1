// The legal documents the app links to (privacy policy, pre-contract information, the biometrics notice and the
// framework contracts), as clearly marked SAMPLES in Spanish and English, for the embedded default: production
// points LEGAL_BASE_URL at the bank's own documents. Made with pdf-lib on first request and kept in memory.
import { PDFDocument } from 'pdf-lib';
import { textWriter } from './pdfLayout';

export const LEGAL_DOCUMENTS = ['privacy', 'pre-contract', 'biometrics', 'microbusinesses', 'companies', 'self-employed'] as const;
export type LegalDocument = (typeof LEGAL_DOCUMENTS)[number];

const TITLES: Record<LegalDocument, { es: string; en: string; es_about: string; en_about: string }> = {
  privacy: {
    es: 'Política de privacidad',
    en: 'Privacy policy',
    es_about: 'Cómo trata Divilo los datos personales de solicitantes y clientes, con qué fines y bases legales, durante cuánto tiempo, y cómo ejercer los derechos de acceso, rectificación, supresión, oposición, limitación y portabilidad.',
    en_about: 'How Divilo processes the personal data of applicants and customers, for which purposes and on which legal bases, for how long, and how to exercise the rights of access, rectification, erasure, objection, restriction and portability.',
  },
  'pre-contract': {
    es: 'Información precontractual',
    en: 'Pre-contract information',
    es_about: 'Las condiciones de la cuenta de negocio antes de contratarla: comisiones, límites, duración, desistimiento y reclamaciones.',
    en_about: 'The terms of the business account before signing up: fees, limits, duration, withdrawal and complaints.',
  },
  biometrics: {
    es: 'Información sobre datos biométricos',
    en: 'Biometric data notice',
    es_about: 'Cómo se usan las fotos del documento de identidad y el selfi para verificar la identidad, y durante cuánto tiempo se conservan.',
    en_about: 'How the photos of the ID document and the selfie are used to verify identity, and how long they are kept.',
  },
  microbusinesses: {
    es: 'Contrato marco para microempresas',
    en: 'Framework contract for microenterprises',
    es_about: 'Las condiciones generales de los servicios de pago para microempresas.',
    en_about: 'The general terms of the payment services for microenterprises.',
  },
  companies: {
    es: 'Contrato marco para empresas',
    en: 'Framework contract for companies',
    es_about: 'Las condiciones generales de los servicios de pago para sociedades.',
    en_about: 'The general terms of the payment services for companies.',
  },
  'self-employed': {
    es: 'Contrato marco para autónomos',
    en: 'Framework contract for the self-employed',
    es_about: 'Las condiciones generales de los servicios de pago para trabajadores autónomos.',
    en_about: 'The general terms of the payment services for the self-employed.',
  },
};

const SAMPLE = {
  es: 'MUESTRA. Este documento no es el texto legal de Divilo: lo sustituye el documento del banco en producción.',
  en: 'SAMPLE. This document is not Divilo’s legal text: the bank’s own document replaces it in production.',
};

/** One sample document, both languages on it, dated `now` (a fixed date makes the same bytes every time). */
export async function legalSample(name: LegalDocument, now = new Date(Date.UTC(2026, 0, 1))): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const title = TITLES[name];
  doc.setTitle(`${title.es} / ${title.en} (muestra / sample)`);
  doc.setProducer('Divilo');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
  const writer = textWriter(doc, 'Divilo — MUESTRA / SAMPLE');
  writer.text(title.es, { size: 18, bold: true });
  writer.text(SAMPLE.es, { bold: true, before: 8 });
  writer.text(title.es_about, { before: 8 });
  writer.text(title.en, { size: 18, bold: true, before: 24 });
  writer.text(SAMPLE.en, { bold: true, before: 8 });
  writer.text(title.en_about, { before: 8 });
  await writer.finish((page, total) => `${title.es} / ${title.en} — ${page}/${total}`);
  return doc.save({ useObjectStreams: false });
}
