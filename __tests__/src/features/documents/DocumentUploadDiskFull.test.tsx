// The upload field when the server's storage disk is full (its DATA_DIR on a small file system that fills up):
// the applicant reads that the problem is ours and nothing was kept, and the same file goes through once there is
// room again.
import { File as NodeFile } from 'node:buffer';
import { screen, waitFor } from '@testing-library/react';
import { plainPdf } from '../../../server/pdfs';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../../server/smallDisk';
import { renderField, startAppServer, withoutXmlHttpRequest, type AppServerProcess } from './appServerProcess';

const unavailable = smallDiskUnavailable('the upload field on a full disk');
const MAX_BYTES = 16 * 1024 * 1024;

(unavailable ? describe.skip : describe)('DocumentUpload when the storage is full', () => {
  let disk: SmallDisk;
  let server: AppServerProcess;
  withoutXmlHttpRequest();
  beforeAll(async () => {
    disk = mountSmallDisk(16 * 1024 * 1024);
    server = await startAppServer(MAX_BYTES, { DATA_DIR: disk.dir });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    disk?.unmount();
  });

  it('says the problem is on our side and nothing was kept, then takes the file once there is room', async () => {
    const { user, input, onUploaded } = await renderField(server, 'application-disk-full');
    const pdf = new NodeFile([new Uint8Array(plainPdf({ size: 1024 * 1024 }))], 'modelo036.pdf', { type: 'application/pdf' }) as unknown as File;
    disk.fill(256 * 1024);
    await user.upload(input, pdf);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent("We can't store documents at the moment: the problem is on our side, not with your file."), {
      timeout: 20_000,
    });
    expect(onUploaded).not.toHaveBeenCalled();
    expect(await server.call('listDocuments', 'application-disk-full')).toEqual([]);

    disk.free();
    await user.upload(screen.getByLabelText(/Choose a PDF: Modelo 036/), pdf);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Document received (1 MB).'), { timeout: 20_000 });
    expect(onUploaded).toHaveBeenCalledTimes(1);
  });
});
