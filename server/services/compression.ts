import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

type Encoding = 'br' | 'gzip';

const compressors: Record<Encoding, (text: string) => Promise<Buffer>> = {
  br: (text) => promisify(brotliCompress)(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }),
  gzip: (text) => promisify(gzip)(text, { level: 9 }),
};

/** The encoding to send to a browser that sent this Accept-Encoding: brotli, else gzip, else none. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase().split(/\s*;\s*/))
      .filter(([, ...params]) => !params.some((param) => /^q=0(\.0*)?$/.test(param)))
      .map(([name]) => name),
  );
  return (['br', 'gzip'] as const).find((encoding) => accepted.has(encoding));
}

/** A strong ETag for a text: its hash. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/**
 * Compressed copies of texts the server assembles per request but that repeat (the first page per language
 * and area, the locale catalogs): each is compressed once, at the strongest level, and kept. The oldest goes
 * first past `limit` (a deployment changes them, and only a handful are current).
 */
export function compressedCopies(limit = 32) {
  const copies = new Map<string, Promise<Buffer>>();
  return (text: string, encoding: Encoding, key = etagOf(text)): Promise<Buffer> => {
    const id = `${encoding} ${key}`;
    let copy = copies.get(id);
    if (!copy) {
      copy = compressors[encoding](text);
      copy.catch(() => copies.delete(id));
      if (copies.size >= limit) copies.delete(copies.keys().next().value!);
      copies.set(id, copy);
    }
    return copy;
  };
}
