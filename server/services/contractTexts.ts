// The words the product puts around the bank's contract text (contractTemplates.ts): the labels of the
// applicant's fields, the names of the product's choices, and the signature record, in the two languages of
// the wizard.
import type { DIVILO_PRODUCTS } from '../../src/validation/onboarding';

type Product = (typeof DIVILO_PRODUCTS)[number];

export interface ContractTexts {
  labels: {
    name: string;
    idDocument: string;
    nif: string;
    companyName: string;
    cif: string;
    email: string;
    phone: string;
    fiscalAddress: string;
    registeredAddress: string;
    legalForm: string;
    product: string;
  };
  idTypes: Record<string, string>;
  products: Record<Product, string>;
  consents: { privacy: string; precontractual: string; electronicIdentification: string };
  consentPending: string;
  madridTime: string;
  record: {
    title: string;
    intro: string;
    who: string;
    idDocument: string;
    signedAt: string;
    ip: string;
    userAgent: string;
    sha256: string;
    sha256Note: string;
    /** The documents the applicant provided, each by its SHA-256 as the bank keeps it. */
    evidence: string;
    evidenceNote: string;
    evidenceKinds: Record<string, string>;
    code: string;
    requestId: string;
    contractVersion: string;
    seal: string;
    /** The reason a PDF reader shows for the seal. */
    sealReason: string;
    codeConfirmation: (maskedPhone: string, when: string) => string;
  };
}

export const CONTRACT_TEXTS: Record<'es' | 'en', ContractTexts> = {
  es: {
    labels: {
      name: 'Nombre y apellidos',
      idDocument: 'Documento de identidad',
      nif: 'NIF',
      companyName: 'Denominación social',
      cif: 'CIF',
      email: 'Correo electrónico',
      phone: 'Teléfono móvil verificado',
      fiscalAddress: 'Domicilio fiscal',
      registeredAddress: 'Domicilio social',
      legalForm: 'Forma jurídica',
      product: 'Producto',
    },
    idTypes: { nif: 'DNI/NIE', passport: 'Pasaporte' },
    products: {
      account: 'Cuenta de negocio',
      'account-and-cards': 'Cuenta de negocio y tarjetas',
      'account-cards-and-payments': 'Cuenta de negocio, tarjetas y pagos',
    },
    consents: {
      privacy: 'Política de privacidad aceptada',
      precontractual: 'Información precontractual recibida',
      electronicIdentification: 'Consentimiento para la identificación y la firma electrónicas',
    },
    consentPending: 'pendiente: se registra al firmar',
    madridTime: 'hora de Madrid',
    record: {
      title: 'Registro de firma electrónica',
      intro: 'Este registro acompaña al contrato que lo precede. El contrato, tal como se mostró al titular, va adjunto a este documento (contrato.pdf).',
      who: 'Firmante',
      idDocument: 'Documento de identidad',
      signedAt: 'Fecha y hora de la firma',
      ip: 'Dirección IP',
      userAgent: 'Navegador',
      sha256: 'SHA-256 del contrato',
      sha256Note: 'Huella del contrato adjunto (contrato.pdf): cualquier cambio en él da otra huella.',
      evidence: 'Documentos aportados (SHA-256)',
      evidenceNote: 'Huella de cada documento tal como Divilo lo conserva desde la comprobación: cualquier cambio en él da otra huella.',
      evidenceKinds: {
        documentFront: 'Documento de identidad (anverso)',
        documentBack: 'Documento de identidad (reverso)',
        selfie: 'Selfi',
        model036: 'Modelo 036/037',
        model200: 'Modelo 200',
        companyDeeds: 'Escrituras',
        articlesOfIncorporation: 'Estatutos',
      },
      code: 'Confirmación de la firma',
      requestId: 'Identificador de la petición',
      contractVersion: 'Versión del texto del contrato',
      seal: 'Divilo sella este documento completo con un sello electrónico (PAdES): cualquier cambio posterior invalida el sello.',
      sealReason: 'Contrato firmado por el titular con un código SMS',
      codeConfirmation: (maskedPhone, when) => `Código SMS enviado al ${maskedPhone} y confirmado el ${when}`,
    },
  },
  en: {
    labels: {
      name: 'Full name',
      idDocument: 'ID document',
      nif: 'Tax ID (NIF)',
      companyName: 'Company name',
      cif: 'Company tax ID (CIF)',
      email: 'E-mail',
      phone: 'Verified mobile phone',
      fiscalAddress: 'Fiscal address',
      registeredAddress: 'Registered address',
      legalForm: 'Legal form',
      product: 'Product',
    },
    idTypes: { nif: 'DNI/NIE', passport: 'Passport' },
    products: {
      account: 'Business account',
      'account-and-cards': 'Business account and cards',
      'account-cards-and-payments': 'Business account, cards and payments',
    },
    consents: {
      privacy: 'Privacy policy accepted',
      precontractual: 'Precontractual information received',
      electronicIdentification: 'Consent to electronic identification and signature',
    },
    consentPending: 'pending: recorded on signing',
    madridTime: 'Madrid time',
    record: {
      title: 'Electronic signature record',
      intro: 'This record goes with the contract before it. The contract, as shown to the holder, is attached to this document (contract.pdf).',
      who: 'Signed by',
      idDocument: 'ID document',
      signedAt: 'Date and time of signing',
      ip: 'IP address',
      userAgent: 'Browser',
      sha256: 'SHA-256 of the contract',
      sha256Note: 'Fingerprint of the attached contract (contract.pdf): any change to it gives another fingerprint.',
      evidence: 'Documents provided (SHA-256)',
      evidenceNote: 'Fingerprint of each document as Divilo has kept it since it was checked: any change to it gives another fingerprint.',
      evidenceKinds: {
        documentFront: 'Identity document (front)',
        documentBack: 'Identity document (back)',
        selfie: 'Selfie',
        model036: 'Form 036/037',
        model200: 'Form 200',
        companyDeeds: 'Deeds',
        articlesOfIncorporation: 'Articles of association',
      },
      code: 'Signature confirmation',
      requestId: 'Request id',
      contractVersion: 'Version of the contract text',
      seal: 'Divilo seals this whole document with an electronic seal (PAdES): any later change invalidates the seal.',
      sealReason: 'Contract signed by the holder with an SMS code',
      codeConfirmation: (maskedPhone, when) => `SMS code to ${maskedPhone} confirmed at ${when}`,
    },
  },
};
