// The one request of an upload whose progress the applicant watches: a PUT (a single put, or a part) sent with
// XMLHttpRequest, whose upload events fetch does not have. lib-storage listens for `xhr.upload.progress` on a
// request handler that is an EventEmitter; the browser fires them every few kilobytes (docs/storage.md).

/** What the SDK hands a request handler: a signed HTTP request. */
export interface SignedRequest {
  method: string;
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

/** What the SDK expects back: its deserializers read the status, the headers and the body as bytes. */
interface ReceivedResponse {
  response: { statusCode: number; reason?: string; headers: Record<string, string>; body: Uint8Array };
}

/** The part of XMLHttpRequest used here (a test hands in its own). */
export interface XhrLike {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body?: unknown): void;
  abort(): void;
  responseType: string;
  readonly status: number;
  readonly statusText: string;
  readonly response: unknown;
  readonly upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
}

// Set by the browser from the connection; XMLHttpRequest refuses them.
const BROWSER_HEADERS = new Set(['host', 'content-length', 'connection', 'expect']);

function urlOf(request: SignedRequest): string {
  const query = Object.entries(request.query ?? {})
    .flatMap(([name, value]) => (value === null ? [name] : (Array.isArray(value) ? value : [value]).map((item) => `${encodeURIComponent(name)}=${encodeURIComponent(item)}`)))
    .join('&');
  const port = request.port ? `:${request.port}` : '';
  return `${request.protocol}//${request.hostname}${port}${request.path}${query ? `?${query}` : ''}`;
}

function headersOf(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * Sends one signed PUT with `xhr`, telling `onProgress` how many bytes of the body have gone; a cancel through
 * `abortSignal` stops it with an AbortError, a failed connection is a TypeError as fetch's would be.
 */
export function putWithProgress(
  xhr: XhrLike,
  request: SignedRequest,
  onProgress: (progress: { loaded: number; total: number }) => void,
  abortSignal?: AbortSignal,
): Promise<ReceivedResponse> {
  return new Promise((resolve, reject) => {
    const aborted = () => reject(Object.assign(new Error('Request aborted'), { name: 'AbortError' }));
    if (abortSignal?.aborted) return aborted();
    xhr.open(request.method, urlOf(request));
    for (const [name, value] of Object.entries(request.headers)) if (!BROWSER_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    xhr.responseType = 'arraybuffer';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    };
    const stop = () => xhr.abort();
    abortSignal?.addEventListener('abort', stop, { once: true });
    const done = () => abortSignal?.removeEventListener('abort', stop);
    xhr.onload = () => {
      done();
      const body = xhr.response instanceof ArrayBuffer ? new Uint8Array(xhr.response) : new Uint8Array();
      resolve({ response: { statusCode: xhr.status, reason: xhr.statusText, headers: headersOf(xhr.getAllResponseHeaders()), body } });
    };
    xhr.onerror = () => {
      done();
      reject(Object.assign(new Error('Network Error'), { name: 'TypeError' }));
    };
    xhr.onabort = () => {
      done();
      aborted();
    };
    void sendable(request.body).then(
      (body) => xhr.send(body),
      (error: unknown) => {
        done();
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The body as XMLHttpRequest takes it: a Blob of another realm (a test's) is read into bytes first. */
async function sendable(body: unknown): Promise<unknown> {
  if (body === undefined || body === null || typeof body === 'string' || ArrayBuffer.isView(body)) return body;
  if (typeof Blob === 'function' && body instanceof Blob) return body;
  const readable = body as { arrayBuffer?: () => Promise<ArrayBuffer> };
  return typeof readable.arrayBuffer === 'function' ? new Uint8Array(await readable.arrayBuffer()) : body;
}
