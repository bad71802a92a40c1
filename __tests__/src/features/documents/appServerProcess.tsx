// The whole server in a process of its own (appServer.ts) for the upload field's tests, the runtime configuration
// pointed at it, and the field rendered for an application as the wizard renders it.
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '../../../../src/app/store';
import { setRuntimeConfig } from '../../../../src/config';
import { DocumentUpload } from '../../../../src/features/documents/DocumentUpload';
import type { CheckedDocument } from '../../../../src/features/documents/documentsApi';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderWithIntl } from '../../components/renderWithIntl';
import { testRuntimeConfig } from '../../testConfig';

export interface AppServerProcess {
  /** What appServer.ts arranges or looks at for the test: onboarding tokens, recorded documents, stored files. */
  call<T>(call: 'issueToken' | 'listDocuments' | 'fillStorage' | 'storedFiles' | 'storageAwayOnce' | 'close', applicationId?: string, bytes?: number): Promise<T>;
  close(): Promise<void>;
}

/**
 * jsdom's XMLHttpRequest applies CORS for its own origin, which the embedded endpoint does not list: PUTs take the
 * SDK's Node path, as they do where there is no XMLHttpRequest. The browser's path runs in e2e/forms.spec.ts.
 */
export function withoutXmlHttpRequest(): void {
  const pageXhr = globalThis.XMLHttpRequest;
  beforeAll(() => {
    delete (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
  });
  afterAll(() => {
    globalThis.XMLHttpRequest = pageXhr;
  });
}

/** Starts the server with `env` (DOCUMENT_MAX_BYTES at `maxBytes`) and points the app's configuration at it. */
export async function startAppServer(maxBytes: number, env: Record<string, string> = {}): Promise<AppServerProcess> {
  const child: ChildProcess = fork(path.join(__dirname, 'appServer.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, APP_ENV: JSON.stringify({ DOCUMENT_MAX_BYTES: String(maxBytes), LOG_LEVEL: 'silent', ...env }) },
  });
  let nextId = 0;
  const pending = new Map<number, (result: unknown) => void>();
  const ready = await new Promise<{ base: string; storage: { region: string; bucket: string } }>((resolve, reject) => {
    child.on('message', (message: { ready?: { base: string; storage: { region: string; bucket: string } }; id?: number; result?: unknown }) => {
      if (message.ready) resolve(message.ready);
      if (message.id !== undefined) pending.get(message.id)?.(message.result);
    });
    child.once('exit', (code) => reject(new Error(`the server process ended (${code})`)));
  });
  setRuntimeConfig(
    testRuntimeConfig({
      apiBaseUrl: `${ready.base}/api/`,
      identity: { ...testRuntimeConfig().identity, endpoint: `${ready.base}/cognito` },
      storage: { ...ready.storage, endpoint: `${ready.base}/s3`, maxDocumentBytes: maxBytes },
    }),
  );
  const call: AppServerProcess['call'] = (name, applicationId, bytes) => {
    const id = (nextId += 1);
    return new Promise((resolve) => {
      pending.set(id, resolve as (result: unknown) => void);
      child.send({ id, call: name, applicationId, bytes });
    });
  };
  return { call, close: () => call('close') };
}

/** The model 036 field of `applicationId`'s wizard, signed in with its onboarding token, in English. */
export async function renderField(server: AppServerProcess, applicationId: string, onUploaded = jest.fn<void, [CheckedDocument]>()) {
  const token = await server.call<string>('issueToken', applicationId);
  const store = makeStore({ session: { ...initialSessionState, authorizationToken: token } }, { persist: false });
  const view = renderWithIntl(
    <Provider store={store}>
      <DocumentUpload kind="model036" label="Modelo 036" onUploaded={onUploaded} />
    </Provider>,
    // The accept attribute is only a hint: a picker may let any file through.
    { locale: 'en', user: { applyAccept: false } },
  );
  return { ...view, onUploaded, input: screen.getByLabelText(/Choose a PDF: Modelo 036/) };
}
