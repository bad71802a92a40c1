// The little XML S3 speaks: answers are written from strings; the one body S3 clients send us
// (CompleteMultipartUpload) is read by a strict parser that knows no DTDs, so no entity tricks get in.

const S3_NAMESPACE = 'http://s3.amazonaws.com/doc/2006-03-01/';
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** Characters XML 1.0 cannot carry at all, not even as references (control characters, lone surrogates…). */
export const XML_INVALID = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const XML_INVALID_ALL = new RegExp(XML_INVALID.source, 'gu');

/** Text as XML content: markup escaped, and what XML cannot carry replaced by U+FFFD (never sent raw). */
function escapeXml(value: string): string {
  return value
    .replace(XML_INVALID_ALL, '\uFFFD')
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** `<name>value</name>`, or nothing when the value is undefined. */
export function textElement(name: string, value: string | number | boolean | undefined): string {
  return value === undefined ? '' : `<${name}>${escapeXml(String(value))}</${name}>`;
}

export function element(name: string, ...children: string[]): string {
  return `<${name}>${children.join('')}</${name}>`;
}

/** A whole answer: declaration, then the root in S3's namespace (errors go without it, as S3 sends them). */
export function xmlDocument(root: string, body: string, namespaced = true): string {
  return `${DECLARATION}<${root}${namespaced ? ` xmlns="${S3_NAMESPACE}"` : ''}>${body}</${root}>`;
}

export interface XmlNode {
  /** Local name, without any namespace prefix. */
  name: string;
  children: XmlNode[];
  text: string;
}

export class XmlSyntaxError extends Error {}

const NAME = /^[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeText(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);|&/g, (match, entity: string | undefined) => {
    if (entity === undefined) throw new XmlSyntaxError('bare ampersand');
    if (entity.startsWith('#x')) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(parseInt(entity.slice(1), 10));
    const value = ENTITIES[entity];
    if (value === undefined) throw new XmlSyntaxError(`unknown entity ${match}`);
    return value;
  });
}

/** Parses one document into elements and their text; attributes are checked for form and dropped. */
export function parseXml(source: string): XmlNode {
  let at = 0;
  const rest = () => source.slice(at, at + 64);
  const skipSpace = () => {
    while (at < source.length && /\s/.test(source[at])) at += 1;
  };
  /** Moves past a construct that starts at `at` with `open`; answers what stands between `open` and `close`. */
  const skipPast = (open: string, close: string, what: string): string => {
    const start = at + open.length;
    const end = source.indexOf(close, start);
    if (end < 0) throw new XmlSyntaxError(`unterminated ${what}`);
    at = end + close.length;
    return source.slice(start, end);
  };
  const skipMisc = () => {
    for (;;) {
      skipSpace();
      if (source.startsWith('<!--', at)) skipPast('<!--', '-->', 'comment');
      else if (source.startsWith('<?', at)) skipPast('<?', '?>', 'processing instruction');
      else return;
    }
  };

  const parseElement = (depth: number): XmlNode => {
    if (depth > 16) throw new XmlSyntaxError('too deep');
    if (source[at] !== '<') throw new XmlSyntaxError(`element expected at ${rest()}`);
    at += 1;
    const nameMatch = NAME.exec(source.slice(at, at + 256));
    if (!nameMatch) throw new XmlSyntaxError('element name expected');
    const qualified = nameMatch[0];
    at += qualified.length;
    // Attributes: name="value" or name='value'; only namespace declarations are expected.
    for (;;) {
      skipSpace();
      if (source.startsWith('/>', at)) {
        at += 2;
        return { name: localName(qualified), children: [], text: '' };
      }
      if (source[at] === '>') {
        at += 1;
        break;
      }
      const attribute = /^([A-Za-z_][\w.:-]*)\s*=\s*("[^"<]*"|'[^'<]*')/.exec(source.slice(at, at + 4096));
      if (!attribute) throw new XmlSyntaxError(`attribute expected at ${rest()}`);
      decodeText(attribute[2].slice(1, -1));
      at += attribute[0].length;
    }
    const node: XmlNode = { name: localName(qualified), children: [], text: '' };
    for (;;) {
      if (at >= source.length) throw new XmlSyntaxError(`unterminated <${qualified}>`);
      if (source.startsWith('</', at)) {
        at += 2;
        if (!source.startsWith(qualified, at)) throw new XmlSyntaxError(`mismatched end of <${qualified}>`);
        at += qualified.length;
        skipSpace();
        if (source[at] !== '>') throw new XmlSyntaxError('end tag not closed');
        at += 1;
        return node;
      }
      if (source.startsWith('<!--', at)) {
        skipPast('<!--', '-->', 'comment');
      } else if (source.startsWith('<![CDATA[', at)) {
        node.text += skipPast('<![CDATA[', ']]>', 'CDATA');
      } else if (source.startsWith('<!', at) || source.startsWith('<?', at)) {
        throw new XmlSyntaxError('declarations are not accepted');
      } else if (source[at] === '<') {
        node.children.push(parseElement(depth + 1));
      } else {
        const end = source.indexOf('<', at);
        const raw = source.slice(at, end < 0 ? source.length : end);
        node.text += decodeText(raw);
        at += raw.length;
      }
    }
  };

  skipMisc();
  if (source.startsWith('<!', at)) throw new XmlSyntaxError('declarations are not accepted');
  const root = parseElement(0);
  skipMisc();
  if (at !== source.length) throw new XmlSyntaxError('content after the root element');
  return root;
}

function localName(qualified: string): string {
  const colon = qualified.indexOf(':');
  return colon < 0 ? qualified : qualified.slice(colon + 1);
}
