import { useEffect, useId, useRef, useState, type ChangeEvent, type Ref } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { CheckIcon } from '../../components/icons';
import { getRuntimeConfig } from '../../config';
import { describeMessages } from '../../i18n/messages';
import type { ApiError } from '../../services/baseQuery';
import { outageOf } from '../../services/outage';
import { isPdfFile } from '../../validation';
import { APPLICATION_STORAGE_MAX_BYTES, documentMaxBytes } from '../../validation/documentLimits';
import { useGetStorageIdentityMutation, useReportDocumentMutation, type CheckedDocument, type DocumentKind } from './documentsApi';
import '../../components/base.css';
import './DocumentUpload.css';

const messages = describeMessages({
  hint: { id: 'documents.hint', defaultMessage: 'PDF, up to {max}.' },
  choose: { id: 'documents.choose', defaultMessage: 'Choose a PDF' },
  replace: { id: 'documents.replace', defaultMessage: 'Replace the PDF' },
  cancel: { id: 'documents.cancel', defaultMessage: 'Cancel the upload' },
  progress: { id: 'documents.progress', defaultMessage: 'Uploading {name}' },
  checking: { id: 'documents.checking', defaultMessage: 'Checking the document…' },
  stored: { id: 'documents.stored', defaultMessage: 'Document received ({size}).' },
  cancelled: { id: 'documents.cancelled', defaultMessage: 'Upload cancelled. Nothing of it was kept.' },
  notPdf: { id: 'validations.fileTypePDF', defaultMessage: 'The file must be a PDF' },
  tooLarge: { id: 'documents.tooLarge', defaultMessage: 'The file is larger than {max}. Please upload a smaller PDF.' },
  failed: { id: 'documents.failed', defaultMessage: "We couldn't upload your document. Check your connection and try again." },
  serverFull: {
    id: 'documents.serverFull',
    defaultMessage: "We can't store documents at the moment: the problem is on our side, not with your file. Please try again later; the documents you already sent are safe.",
  },
  unavailable: {
    id: 'documents.unavailable',
    defaultMessage: "We can't reach our document service right now, so your file has not been checked yet. Nothing is lost: try again in a moment.",
  },
  tryAgain: { id: 'documents.tryAgain', defaultMessage: 'Try again' },
  storageFull: {
    id: 'documents.storageFull',
    defaultMessage: 'Your application has no room left for this file: its files may take {total} in all. Files that were never submitted are removed after a day.',
  },
  imageHint: { id: 'documents.image.hint', defaultMessage: 'A JPEG or PNG photo, up to {max}.' },
  imageChoose: { id: 'documents.image.choose', defaultMessage: 'Take or choose a photo' },
  imageReplace: { id: 'documents.image.replace', defaultMessage: 'Take another photo' },
  imageStored: { id: 'documents.image.stored', defaultMessage: 'Photo received ({size}).' },
  notImage: { id: 'documents.image.notImage', defaultMessage: 'The file must be a JPEG or PNG photo.' },
  imageTooSmall: { id: 'documents.image.tooSmall', defaultMessage: 'The photo is too small to read. Take it again closer, in good light.' },
  empty: { id: 'documents.empty', defaultMessage: 'This file is empty. Choose the PDF again, or download it again from where you got it.' },
  notPdfContent: {
    id: 'documents.notPdfContent',
    defaultMessage: 'This file is not a PDF, even if its name ends in .pdf: it may be a photo or another kind of file. Upload the PDF itself.',
  },
  pdfDamaged: { id: 'documents.pdfDamaged', defaultMessage: 'This PDF is damaged or has no pages. Open it to check, then save or download it again.' },
  pdfEncrypted: {
    id: 'documents.pdfEncrypted',
    defaultMessage: 'This PDF is protected with a password. Upload a copy without protection: open it and print it to a new PDF.',
  },
  pdfActive: {
    id: 'documents.pdfActive',
    defaultMessage: 'This PDF contains scripts, attached files or other active content, which we do not accept for your safety. Print it to a new PDF and upload that copy.',
  },
  imageEmpty: { id: 'documents.image.empty', defaultMessage: 'This photo file is empty. Take or choose the photo again.' },
  imageDamaged: { id: 'documents.image.damaged', defaultMessage: 'This photo is damaged or incomplete and cannot be opened. Take it again.' },
  imageTooLargeFile: { id: 'documents.image.tooLargeFile', defaultMessage: 'The photo is larger than {max}. Take it again, or choose a smaller copy.' },
  imageTooManyPixels: {
    id: 'documents.image.tooManyPixels',
    defaultMessage: 'This photo has more pixels than we can take. Take it with your camera as it comes, not in its largest size.',
  },
  frozen: { id: 'documents.frozen', defaultMessage: 'This document was already checked for your application and can no longer be replaced.' },
  imageFrozen: { id: 'documents.image.frozen', defaultMessage: 'Your identity check has started with the photos you sent: they can no longer be replaced.' },
  imageBlank: { id: 'documents.image.blank', defaultMessage: 'This photo shows only one colour: the lens may have been covered or the light too low. Take it again in good light.' },
  imageUniform: {
    id: 'documents.image.uniform',
    defaultMessage: 'We cannot make out a document or a face in this photo: it is blurred or shows too little. Take it again, closer and in focus.',
  },
});

/** What a document is: a PDF (forms, deeds), or a photo (the identity check's, from the camera or a file). */
export type DocumentFormat = 'pdf' | 'image';

const IMAGE_TYPES = ['image/jpeg', 'image/png'];

const FORMATS = {
  pdf: { accept: 'application/pdf,.pdf', hint: 'hint', choose: 'choose', replace: 'replace', stored: 'stored', wrongType: 'notPdf' },
  image: { accept: 'image/jpeg,image/png', hint: 'imageHint', choose: 'imageChoose', replace: 'imageReplace', stored: 'imageStored', wrongType: 'notImage' },
} as const;

type Phase =
  | { name: 'idle' }
  | { name: 'uploading'; fileName: string; fraction: number }
  | { name: 'checking' }
  | { name: 'stored'; size: number }
  | { name: 'cancelled' }
  | { name: 'failed'; message: Refusal; retry?: () => void };

/** A message that tells why a file was refused. */
type Refusal = keyof typeof messages;

export interface DocumentUploadProps {
  kind: DocumentKind;
  label: string;
  /** What the document is, shown under the label (the size rule follows it). */
  description?: string;
  /** The document of this kind the server already has, if any. */
  document?: CheckedDocument | null;
  onUploaded?: (document: CheckedDocument) => void;
  /** `pdf` by default. */
  format?: DocumentFormat;
  /** For photos: which camera a phone opens (`environment` for a document, `user` for a selfie). */
  capture?: 'user' | 'environment';
  /** The file input, so a form can move focus to a missing document. */
  inputRef?: Ref<HTMLInputElement>;
}

const MIB = 1024 * 1024;

/** 850 kB, 2.4 MB: as a person reads a file's size. */
function formatSize(intl: IntlShape, bytes: number): string {
  return bytes < MIB
    ? intl.formatNumber(Math.max(1, Math.round(bytes / 1024)), { style: 'unit', unit: 'kilobyte' })
    : intl.formatNumber(bytes / MIB, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
}

/** Each refusal code of the server, as the applicant should read it for a PDF and for a photo: each says which. */
const REFUSALS = {
  pdf: {
    DOCUMENT_EMPTY: 'empty',
    DOCUMENT_NOT_PDF: 'notPdfContent',
    DOCUMENT_NOT_DECODABLE: 'pdfDamaged',
    DOCUMENT_ENCRYPTED: 'pdfEncrypted',
    DOCUMENT_ACTIVE_CONTENT: 'pdfActive',
    DOCUMENT_TOO_LARGE: 'tooLarge',
    EVIDENCE_FROZEN: 'frozen',
  },
  image: {
    DOCUMENT_EMPTY: 'imageEmpty',
    DOCUMENT_NOT_IMAGE: 'notImage',
    DOCUMENT_NOT_DECODABLE: 'imageDamaged',
    DOCUMENT_TOO_LARGE: 'imageTooLargeFile',
    IMAGE_TOO_SMALL: 'imageTooSmall',
    IMAGE_TOO_LARGE: 'imageTooManyPixels',
    IMAGE_BLANK: 'imageBlank',
    IMAGE_UNIFORM: 'imageUniform',
    EVIDENCE_FROZEN: 'imageFrozen',
  },
} as const satisfies Record<DocumentFormat, Record<string, keyof typeof messages>>;

/** The server's disk is full: the storage's 507 (MinIO's code, the embedded endpoint's too) or the API's. */
function serverIsFull(error: unknown): boolean {
  // An upload whose clean-up failed too carries the refusal as its cause.
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 3; current = (current as { cause?: unknown }).cause, depth += 1) {
    const { name, errorCode } = current as { name?: string; errorCode?: string };
    if (name === 'XMinioStorageFull' || errorCode === 'STORAGE_FULL') return true;
  }
  return false;
}

/** The server's refusal of a document, as the applicant should read it (a failure of another kind: `failed`). */
function refusalMessage(error: unknown, format: DocumentFormat): Refusal {
  if (serverIsFull(error)) return 'serverFull';
  // The storage's own refusal: the file fits its kind (checked before sending), so the application's total is spent.
  if ((error as { name?: string } | undefined)?.name === 'EntityTooLarge') return 'storageFull';
  const code = (error as ApiError | undefined)?.errorCode ?? '';
  const known: Record<string, Refusal> = REFUSALS[format];
  return Object.hasOwn(known, code) ? known[code] : 'failed';
}

/**
 * One document of the application: pick a PDF, it goes straight to storage under the applicant's private area
 * (with a progress bar and a cancel button), then the server checks it and records it. The S3 code loads only
 * when a file is chosen.
 */
export function DocumentUpload({ kind, label, description, document, onUploaded, format = 'pdf', capture, inputRef }: DocumentUploadProps) {
  const shape = FORMATS[format];
  const intl = useIntl();
  const id = useId();
  const [phase, setPhase] = useState<Phase>({ name: 'idle' });
  const [getStorageIdentity] = useGetStorageIdentityMutation();
  const [reportDocument] = useReportDocumentMutation();
  const controller = useRef<AbortController | null>(null);
  const groupRef = useRef<HTMLDivElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const errorRef = useRef<HTMLParagraphElement>(null);
  const maxBytes = documentMaxBytes(kind, getRuntimeConfig().storage.maxDocumentBytes);
  const busy = phase.name === 'uploading' || phase.name === 'checking';

  // Leaving the screen mid-upload cancels it (and removes what was sent).
  useEffect(() => () => controller.current?.abort(), []);

  // While a file goes up its input is disabled and the cancel button goes away when it ends, so focus would fall to
  // the page: it moves to the outcome instead, unless the person has gone on to another part of the page meanwhile.
  const outcome = phase.name === 'stored' || phase.name === 'cancelled' || phase.name === 'failed' ? phase : null;
  useEffect(() => {
    const group = groupRef.current;
    if (!outcome || !group) return;
    const active = group.ownerDocument.activeElement;
    const lost = !active || active === group.ownerDocument.body || group.contains(active);
    if (lost) (outcome.name === 'failed' ? errorRef : statusRef).current?.focus();
  }, [outcome]);

  async function upload(file: File, uploadedKey?: string) {
    // Said before anything is sent, each in its own words: an empty file, one of another type, one too large.
    if (file.size === 0) return setPhase({ name: 'failed', message: REFUSALS[format].DOCUMENT_EMPTY });
    const fits = format === 'pdf' ? isPdfFile(file) : IMAGE_TYPES.includes(file.type);
    if (!fits) return setPhase({ name: 'failed', message: shape.wrongType });
    if (file.size > maxBytes) return setPhase({ name: 'failed', message: REFUSALS[format].DOCUMENT_TOO_LARGE });
    const abort = new AbortController();
    controller.current = abort;
    setPhase({ name: 'uploading', fileName: file.name, fraction: 0 });
    // Once in storage, a try again only asks for the check again: the file is not sent twice.
    let storedKey = uploadedKey;
    try {
      if (storedKey !== undefined) return await report(storedKey);
      const identity = await getStorageIdentity().unwrap();
      const { applicantCredentials, uploadDocument } = await import(/* webpackChunkName: "upload" */ '../../documentStorage/uploadDocument');
      const config = getRuntimeConfig();
      const stored = await uploadDocument(file, {
        // A new name for every attempt: a failed replacement never overwrites the accepted document.
        key: `${kind}/${crypto.randomUUID()}.${format === 'pdf' ? 'pdf' : file.type === 'image/png' ? 'png' : 'jpg'}`,
        level: 'private',
        contentType: format === 'pdf' ? 'application/pdf' : file.type,
        identityId: identity.identityId,
        credentials: applicantCredentials(identity, config.identity),
        config: config.storage,
        signal: abort.signal,
        onProgress: (fraction) => setPhase((current) => (current.name === 'uploading' ? { ...current, fraction } : current)),
      });
      storedKey = stored.key;
      await report(stored.key);
    } catch (error) {
      if (abort.signal.aborted) return setPhase({ name: 'cancelled' });
      // A service behind the upload is away: the same file, and the same upload if it went, can be tried again.
      if (outageOf(error)) return setPhase({ name: 'failed', message: 'unavailable', retry: () => void upload(file, storedKey) });
      setPhase({ name: 'failed', message: refusalMessage(error, format) });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  }

  async function report(key: string) {
    setPhase({ name: 'checking' });
    const checked = await reportDocument({ kind, key }).unwrap();
    setPhase({ name: 'stored', size: checked.size });
    onUploaded?.(checked);
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Emptied, so that choosing the same file again after a failure is a change.
    event.target.value = '';
    if (file) void upload(file);
  }

  const percent = phase.name === 'uploading' ? Math.round(phase.fraction * 100) : 0;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const hasDocument = phase.name === 'stored' || Boolean(document);

  return (
    <div ref={groupRef} className="dv-upload" role="group" aria-labelledby={`${id}-label`}>
      <p id={`${id}-label`} className="dv-upload__label">
        {label}
      </p>
      <p id={hintId} className="dv-upload__hint">
        {description && `${description} `}
        {intl.formatMessage(messages[shape.hint], { max: formatSize(intl, maxBytes) })}
      </p>
      <input
        ref={inputRef}
        id={`${id}-file`}
        type="file"
        accept={shape.accept}
        capture={capture}
        className="dv-upload__input dv-visually-hidden"
        disabled={busy}
        aria-describedby={phase.name === 'failed' ? `${hintId} ${errorId}` : hintId}
        aria-invalid={phase.name === 'failed' || undefined}
        onChange={onChange}
      />
      {/* While the file goes up, its progress takes the button's place (the label stays, for the input): nothing moves. */}
      <label
        htmlFor={`${id}-file`}
        className={phase.name === 'uploading' ? 'dv-visually-hidden' : ['dv-upload__button', busy && 'dv-upload__button--disabled'].filter(Boolean).join(' ')}
      >
        {intl.formatMessage(hasDocument ? messages[shape.replace] : messages[shape.choose])}
        <span className="dv-visually-hidden">: {label}</span>
      </label>
      {phase.name === 'uploading' && (
        <div className="dv-upload__progress">
          <progress max={100} value={percent} aria-label={intl.formatMessage(messages.progress, { name: phase.fileName })} />
          <span aria-hidden="true">{percent}%</span>
          <button type="button" className="dv-upload__cancel" onClick={() => controller.current?.abort()}>
            {intl.formatMessage(messages.cancel)}
          </button>
        </div>
      )}
      {/* The outcome's one line, kept whether empty or not: a status and an error never show together, so they
          share it, and nothing below moves when either comes. */}
      <div className="dv-upload__outcome">
        <p ref={statusRef} className="dv-upload__status" role="status" tabIndex={-1}>
          {phase.name === 'checking' && intl.formatMessage(messages.checking)}
          {(phase.name === 'stored' || (phase.name === 'idle' && document)) && (
            <>
              <CheckIcon className="dv-upload__check" aria-hidden="true" />
              {intl.formatMessage(messages[shape.stored], { size: formatSize(intl, phase.name === 'stored' ? phase.size : document!.size) })}
            </>
          )}
          {phase.name === 'cancelled' && intl.formatMessage(messages.cancelled)}
        </p>
        <p ref={errorRef} id={errorId} className="dv-upload__error" role="alert" tabIndex={-1}>
          {phase.name === 'failed' && intl.formatMessage(messages[phase.message], { max: formatSize(intl, maxBytes), total: formatSize(intl, APPLICATION_STORAGE_MAX_BYTES) })}
        </p>
      </div>
      {phase.name === 'failed' && phase.retry && (
        <button type="button" className="dv-upload__button dv-upload__retry" onClick={phase.retry}>
          {intl.formatMessage(messages.tryAgain)}
          <span className="dv-visually-hidden">: {label}</span>
        </button>
      )}
    </div>
  );
}
