// The upload field against the whole server on a real port: storage identity, upload through the S3 SDK to
// the embedded endpoint, and the server's check, as an applicant's browser does them.
import { File as NodeFile } from 'node:buffer';
import { screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../../src/app/store';
import { DocumentUpload } from '../../../../src/features/documents/DocumentUpload';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderWithIntl } from '../../components/renderWithIntl';
import { APPLICATION_STORAGE_MAX_BYTES } from '../../../../src/validation/documentLimits';
import { flatPhoto, pictureLessPng } from '../../../server/images';
import { plainPdf } from '../../../server/pdfs';
import { renderField as renderFieldOf, startAppServer, withoutXmlHttpRequest, type AppServerProcess } from './appServerProcess';

const MAX_BYTES = 16 * 1024 * 1024;
// Files as a browser's picker hands them over: with stream(), which jsdom's File lacks (Node's has it).
const file = (parts: (string | Uint8Array)[], name: string, type: string) => new NodeFile(parts, name, { type }) as unknown as File;
const pdf = (size = 2048, name = 'modelo036.pdf') => file([new Uint8Array(plainPdf({ size }))], name, 'application/pdf');

let server: AppServerProcess;
const call = <T,>(name: Parameters<AppServerProcess['call']>[0], applicationId?: string, bytes?: number) => server.call<T>(name, applicationId, bytes);
const renderField = (applicationId: string) => renderFieldOf(server, applicationId);

withoutXmlHttpRequest();
beforeAll(async () => {
  server = await startAppServer(MAX_BYTES);
}, 60_000);
afterAll(async () => {
  await server.close();
});

describe('DocumentUpload against the server', () => {
  it('uploads a PDF, has the server check it, and says so', async () => {
    const { user, input, onUploaded } = await renderField('application-field-1');
    expect(screen.getByText('PDF, up to 16 MB.')).toBeInTheDocument();
    await user.upload(input, pdf(2048));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/Document received \(2 kB\)\./), { timeout: 20_000 });
    expect(onUploaded).toHaveBeenCalledWith(expect.objectContaining({ kind: 'model036', size: 2048, key: expect.stringMatching(/^private\/.+\/model036\/[0-9a-f-]{36}\.pdf$/) }));
    const recorded = await call<{ key: string }[]>('listDocuments', 'application-field-1');
    expect(recorded.map((document) => document.key)).toEqual([onUploaded.mock.calls[0][0].key]);
    // Once a document is there, the button offers to replace it.
    expect(screen.getByLabelText(/Replace the PDF: Modelo 036/)).toBeInTheDocument();
  });

  it('moves focus to the result when an upload ends, not to the page', async () => {
    const { user, input } = await renderField('application-field-7');
    input.focus();
    await user.upload(input, pdf(2048));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/Document received/), { timeout: 20_000 });
    await waitFor(() => expect(screen.getByRole('status')).toHaveFocus());
    // The server's refusal is what the applicant lands on.
    await user.upload(screen.getByLabelText(/Replace the PDF: Modelo 036/), file(['\x89PNG not a pdf at all'], 'scan.pdf', 'application/pdf'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(/This file is not a PDF/), { timeout: 20_000 });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveFocus());
  });

  it('refuses a file that is not a PDF or is too large before sending anything, with a translated error', async () => {
    const { user, input, onUploaded } = await renderField('application-field-2');
    await user.upload(input, file(['GIF89a'], 'photo.gif', 'image/gif'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The file must be a PDF'));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.upload(input, pdf(MAX_BYTES + 1));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The file is larger than 16 MB. Please upload a smaller PDF.'));
    expect(onUploaded).not.toHaveBeenCalled();
    expect(await call('listDocuments', 'application-field-2')).toEqual([]);
  });

  it("says so when the application's storage has no room left for a file of its size", async () => {
    const { user, input, onUploaded } = await renderField('application-field-full');
    await call('fillStorage', 'application-field-full', APPLICATION_STORAGE_MAX_BYTES - 1024);
    await user.upload(input, pdf(2048));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Your application has no room left for this file: its files may take 64 MB in all.'), { timeout: 20_000 });
    expect(onUploaded).not.toHaveBeenCalled();
    expect(await call('listDocuments', 'application-field-full')).toEqual([]);
  });

  it('storage unreachable at the check: says so, keeps the upload, and "Try again" checks it again without sending it twice', async () => {
    const { user, input, onUploaded } = await renderField('application-field-away');
    await call('storageAwayOnce');
    await user.upload(input, pdf(2048));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent("We can't reach our document service right now, so your file has not been checked yet. Nothing is lost: try again in a moment."), {
      timeout: 20_000,
    });
    expect(onUploaded).not.toHaveBeenCalled();
    expect(await call('listDocuments', 'application-field-away')).toEqual([]);
    await user.click(screen.getByRole('button', { name: /^Try again ?: Modelo 036$/ }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(/Document received \(2 kB\)\./), { timeout: 20_000 });
    expect(screen.queryByRole('button', { name: /Try again/ })).not.toBeInTheDocument();
    const stored = await call<string[]>('storedFiles', 'application-field-away');
    expect(stored).toEqual([onUploaded.mock.calls[0][0].key]);
  });

  it("shows the server's refusal of a file that only looks like a PDF, and keeps nothing", async () => {
    const { user, input, onUploaded } = await renderField('application-field-3');
    const fake = file(['\x89PNG not a pdf at all'], 'scan.pdf', 'application/pdf');
    await user.upload(input, fake);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This file is not a PDF, even if its name ends in .pdf'), { timeout: 20_000 });
    expect(onUploaded).not.toHaveBeenCalled();
    await waitFor(async () => expect(await call('listDocuments', 'application-field-3')).toEqual([]));
  });

  it('says which problem a refused PDF has: empty, damaged, or holding a script', async () => {
    const { user, input, onUploaded } = await renderField('application-field-5');
    await user.upload(input, file([], 'modelo036.pdf', 'application/pdf'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This file is empty. Choose the PDF again'));
    await user.upload(input, file(['%PDF-1.7\n<html><script>alert(1)</script></html>'], 'page.pdf', 'application/pdf'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This PDF is damaged or has no pages.'), { timeout: 20_000 });
    await user.upload(input, file([new Uint8Array(plainPdf({ catalog: '/OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >>' }))], 'script.pdf', 'application/pdf'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This PDF contains scripts, attached files or other active content'), { timeout: 20_000 });
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('says which problem a refused photo has: blank, or damaged', async () => {
    const token = await call<string>('issueToken', 'application-field-6');
    const store = makeStore({ session: { ...initialSessionState, authorizationToken: token } }, { persist: false });
    const { user } = renderWithIntl(
      <Provider store={store}>
        <DocumentUpload kind="selfie" format="image" label="A selfie" />
      </Provider>,
      { locale: 'en' },
    );
    const input = screen.getByLabelText(/Take or choose a photo: A selfie/);
    await user.upload(input, file([new Uint8Array(await flatPhoto('png', 720, 960))], 'selfie.png', 'image/png'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This photo shows only one colour'), { timeout: 20_000 });
    await user.upload(input, file([new Uint8Array(pictureLessPng())], 'selfie.png', 'image/png'));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('This photo is damaged or incomplete'), { timeout: 20_000 });
    expect(await call('listDocuments', 'application-field-6')).toEqual([]);
  });

  it('cancels an upload in progress: says so, keeps nothing, and lets the applicant choose again', async () => {
    const { user, input, onUploaded } = await renderField('application-field-4');
    await user.upload(input, pdf(12 * 1024 * 1024, 'escritura.pdf'));
    const progress = screen.getByRole('progressbar', { name: 'Uploading escritura.pdf' });
    expect(input).toBeDisabled();
    // The bar takes the button's place, right after the (still labelled) input: what follows does not move.
    expect(progress.closest('.dv-upload__progress')?.previousElementSibling?.className).toBe('dv-visually-hidden');
    expect(document.querySelector('.dv-upload__button')).toBeNull();
    expect(input).toHaveAccessibleName(/Choose a PDF/);
    await user.click(screen.getByRole('button', { name: 'Cancel the upload' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Upload cancelled. Nothing of it was kept.'), { timeout: 20_000 });
    // The cancel button is gone: focus lands on what happened, not on the page.
    expect(screen.getByRole('status')).toHaveFocus();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(input).toBeEnabled();
    expect(onUploaded).not.toHaveBeenCalled();
    expect(await call('listDocuments', 'application-field-4')).toEqual([]);
  });
});
