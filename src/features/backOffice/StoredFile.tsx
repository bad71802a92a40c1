import { useEffect, useState, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { useAppDispatch } from '../../app/hooks';
import { LoadingButton } from '../../components';
import { REQUEST_TIMEOUT_MS } from '../../config';
import { describeMessages } from '../../i18n/messages';
import { errorCodeOf, STAFF_API_BASE, staffCallAnswered, staffSessionEnded, type StaffApiError } from './backOfficeApi';
import { refusalMessage } from './refusals';

// The file's name is heard, not shown: the heading above the button already shows it.
const messages = describeMessages({
  show: { id: 'backOffice.file.show', defaultMessage: 'Show<hidden> {name}</hidden>' },
  hide: { id: 'backOffice.file.hide', defaultMessage: 'Hide<hidden> {name}</hidden>' },
  openTab: { id: 'backOffice.file.openTab', defaultMessage: 'Open in a new tab<hidden>: {name}</hidden>' },
  notShown: { id: 'backOffice.file.notShown', defaultMessage: 'This file cannot be shown here: its type is not a PDF or a photo.' },
});

const hidden = (chunks: ReactNode[]) => <span className="dv-bo-visually-hidden">{chunks}</span>;

type Shown = { kind: 'pdf'; url: string } | { kind: 'image'; url: string } | { kind: 'other' } | { kind: 'refused'; error: StaffApiError };

/** The bytes as a data: address (the page's CSP takes images from data:, not blob:). */
const dataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });

/**
 * A stored file of an application (a document, the contract), fetched with the staff session when asked for and
 * shown in the page: a photo as an image, a PDF in a frame and in a new tab. A refusal (the copy changed since it
 * was frozen, or is missing) is said plainly and nothing of the file is shown.
 */
export function StoredFile({ path, name }: { path: string; name: string }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const [shown, setShown] = useState<Shown | null>(null);
  const [loading, setLoading] = useState(false);

  // A PDF's object address lives as long as it is shown.
  useEffect(() => {
    if (shown?.kind !== 'pdf') return undefined;
    return () => URL.revokeObjectURL(shown.url);
  }, [shown]);

  const show = async () => {
    setLoading(true);
    try {
      const response = await fetch(`${STAFF_API_BASE}/${path}`, { credentials: 'same-origin', signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
      if (!response.ok) {
        const code = errorCodeOf(await response.json().catch(() => undefined));
        if (response.status === 401 && code === 'NO_STAFF_SESSION') dispatch(staffSessionEnded('expired'));
        else dispatch(staffCallAnswered(Date.now()));
        setShown({ kind: 'refused', error: { status: response.status, code } });
        return;
      }
      dispatch(staffCallAnswered(Date.now()));
      const type = response.headers.get('content-type') ?? '';
      const blob = await response.blob();
      if (type.startsWith('application/pdf')) setShown({ kind: 'pdf', url: URL.createObjectURL(new Blob([blob], { type: 'application/pdf' })) });
      else if (type.startsWith('image/jpeg') || type.startsWith('image/png')) setShown({ kind: 'image', url: await dataUrl(blob) });
      else setShown({ kind: 'other' });
    } catch {
      setShown({ kind: 'refused', error: { status: 'FETCH_ERROR' } });
    } finally {
      setLoading(false);
    }
  };

  const open = shown !== null && shown.kind !== 'refused';
  return (
    <div className="dv-bo-file">
      <LoadingButton color="gray" className="dv-bo-file__toggle" loading={loading} aria-expanded={open} onClick={() => (open ? setShown(null) : void show())}>
        {intl.formatMessage(open ? messages.hide : messages.show, { name, hidden })}
      </LoadingButton>
      {shown?.kind === 'refused' && (
        <p className="dv-bo-problem" role="alert">
          {(() => {
            const { descriptor, values } = refusalMessage(shown.error);
            return intl.formatMessage(descriptor, values);
          })()}
        </p>
      )}
      {shown?.kind === 'other' && <p className="dv-bo-notice">{intl.formatMessage(messages.notShown)}</p>}
      {shown?.kind === 'image' && <img className="dv-bo-file__image" src={shown.url} alt={name} />}
      {shown?.kind === 'pdf' && (
        <>
          <iframe className="dv-bo-file__pdf" src={shown.url} title={name} />
          <a href={shown.url} target="_blank" rel="noopener noreferrer">
            {intl.formatMessage(messages.openTab, { name, hidden })}
          </a>
        </>
      )}
    </div>
  );
}
