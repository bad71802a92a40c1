// The words of the business account contract and of its signature record, in the two languages of the wizard.
// The clauses are a SAMPLE text, marked as such on every page: the bank's legal text replaces them here alone.
import type { DIVILO_PRODUCTS } from '../../src/validation/onboarding';

type Product = (typeof DIVILO_PRODUCTS)[number];

export interface ContractTexts {
  title: string;
  sampleNotice: string;
  /** Tops every page of the contract. */
  sampleMark: string;
  pageFooter: (page: number, total: number) => string;
  placeAndDate: (date: string) => string;
  partiesHeading: string;
  provider: string;
  holderHeading: string;
  representedBy: string;
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
  };
  idTypes: Record<string, string>;
  productHeading: string;
  products: Record<Product, string>;
  clausesHeading: string;
  clauses: (dates: { privacy: string; precontractual: string }) => string[];
  consentsHeading: string;
  consents: { privacy: string; precontractual: string; electronicIdentification: string };
  consentPending: string;
  signatureNote: string;
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
    code: string;
    requestId: string;
    seal: string;
    /** The reason a PDF reader shows for the seal. */
    sealReason: string;
    codeConfirmation: (maskedPhone: string, when: string) => string;
    footer: string;
  };
}

export const CONTRACT_TEXTS: Record<'es' | 'en', ContractTexts> = {
  es: {
    title: 'Contrato de cuenta de negocio Divilo',
    sampleNotice: 'MUESTRA: texto de contrato de ejemplo, sin valor contractual. El texto legal definitivo de Divilo lo sustituirá.',
    sampleMark: 'MUESTRA - texto de ejemplo, sin valor contractual',
    pageFooter: (page, total) => `MUESTRA - Contrato de cuenta de negocio Divilo - página ${page} de ${total}`,
    placeAndDate: (date) => `En Madrid, a ${date}`,
    partiesHeading: 'Reunidos',
    provider: 'De una parte, Divilo, proveedor de la cuenta de negocio (en adelante, "Divilo").',
    holderHeading: 'De otra parte, el titular de la cuenta (en adelante, "el titular"):',
    representedBy: 'Representada por:',
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
    },
    idTypes: { nif: 'DNI/NIE', passport: 'Pasaporte' },
    productHeading: 'Producto contratado',
    products: {
      account: 'Cuenta de negocio',
      'account-and-cards': 'Cuenta de negocio y tarjetas',
      'account-cards-and-payments': 'Cuenta de negocio, tarjetas y pagos',
    },
    clausesHeading: 'Cláusulas (texto de muestra)',
    clauses: ({ privacy, precontractual }) => [
      'Primera. Objeto. Divilo abre a nombre del titular una cuenta de pago de negocio con el producto indicado, para la actividad declarada en la solicitud.',
      `Segunda. Condiciones económicas. Las de la información precontractual que el titular recibió el ${precontractual}.`,
      'Tercera. Acceso. El titular opera en línea con su documento de identidad, su contraseña y un código enviado por SMS a su móvil verificado (autenticación reforzada). Nunca debe compartir la contraseña ni los códigos.',
      'Cuarta. Información del titular. El titular declara que los datos de su solicitud son ciertos y se compromete a mantenerlos al día.',
      `Quinta. Protección de datos. Divilo trata los datos del titular según la política de privacidad aceptada el ${privacy}.`,
      'Sexta. Entrada en vigor. La cuenta se abre cuando Divilo revisa y aprueba la solicitud; Divilo comunica su decisión por correo electrónico.',
      'Séptima. Duración y terminación. El contrato es indefinido. El titular puede terminarlo en cualquier momento sin coste; Divilo, con un preaviso de dos meses.',
      'Octava. Ley y jurisdicción. Este contrato se rige por la ley española; son competentes los juzgados del domicilio del titular.',
    ],
    consentsHeading: 'Consentimientos',
    consents: {
      privacy: 'Política de privacidad aceptada',
      precontractual: 'Información precontractual recibida',
      electronicIdentification: 'Consentimiento para la identificación y la firma electrónicas',
    },
    consentPending: 'pendiente: se registra al firmar',
    signatureNote: 'El titular firma este contrato con un código enviado por SMS a su móvil verificado. El registro de la firma sigue a este documento y Divilo lo sella electrónicamente.',
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
      code: 'Confirmación de la firma',
      requestId: 'Identificador de la petición',
      seal: 'Divilo sella este documento completo con un sello electrónico (PAdES): cualquier cambio posterior invalida el sello.',
      sealReason: 'Contrato firmado por el titular con un código SMS',
      codeConfirmation: (maskedPhone, when) => `Código SMS enviado al ${maskedPhone} y confirmado el ${when}`,
      footer: 'MUESTRA - Registro de firma electrónica',
    },
  },
  en: {
    title: 'Divilo business account contract',
    sampleNotice: 'SAMPLE: example contract text, not legally binding. Divilo\'s final legal text will replace it.',
    sampleMark: 'SAMPLE - example text, not legally binding',
    pageFooter: (page, total) => `SAMPLE - Divilo business account contract - page ${page} of ${total}`,
    placeAndDate: (date) => `Madrid, ${date}`,
    partiesHeading: 'Parties',
    provider: 'On the one hand, Divilo, the provider of the business account ("Divilo").',
    holderHeading: 'On the other hand, the account holder ("the holder"):',
    representedBy: 'Represented by:',
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
    },
    idTypes: { nif: 'DNI/NIE', passport: 'Passport' },
    productHeading: 'Product',
    products: {
      account: 'Business account',
      'account-and-cards': 'Business account and cards',
      'account-cards-and-payments': 'Business account, cards and payments',
    },
    clausesHeading: 'Clauses (sample text)',
    clauses: ({ privacy, precontractual }) => [
      '1. Purpose. Divilo opens a business payment account in the holder\'s name with the product above, for the activity declared in the application.',
      `2. Fees and charges. Those of the precontractual information the holder received on ${precontractual}.`,
      '3. Access. The holder operates online with their ID document, their password and a code texted to their verified mobile (strong customer authentication). The password and the codes must never be shared.',
      '4. Holder\'s information. The holder declares the data of the application true and undertakes to keep it up to date.',
      `5. Data protection. Divilo processes the holder's data under the privacy policy accepted on ${privacy}.`,
      '6. Entry into force. The account opens once Divilo reviews and approves the application; Divilo tells its decision by e-mail.',
      '7. Term and termination. The contract has no fixed term. The holder may end it at any time free of charge; Divilo, with two months\' notice.',
      '8. Law and jurisdiction. Spanish law governs this contract; the courts of the holder\'s domicile have jurisdiction.',
    ],
    consentsHeading: 'Consents',
    consents: {
      privacy: 'Privacy policy accepted',
      precontractual: 'Precontractual information received',
      electronicIdentification: 'Consent to electronic identification and signature',
    },
    consentPending: 'pending: recorded on signing',
    signatureNote: 'The holder signs this contract with a code texted to their verified mobile. The signature record follows this document, and Divilo seals it electronically.',
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
      code: 'Signature confirmation',
      requestId: 'Request id',
      seal: 'Divilo seals this whole document with an electronic seal (PAdES): any later change invalidates the seal.',
      sealReason: 'Contract signed by the holder with an SMS code',
      codeConfirmation: (maskedPhone, when) => `SMS code to ${maskedPhone} confirmed at ${when}`,
      footer: 'SAMPLE - Electronic signature record',
    },
  },
};
