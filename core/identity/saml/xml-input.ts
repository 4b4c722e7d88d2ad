import { DOMParser, type Document } from '@xmldom/xmldom';
import { samlError } from './errors.ts';

export type XmlLimits = {
  /** Largest decoded document accepted, checked before any parsing. */
  readonly maxBytes: number;
  /** Deepest element nesting accepted, checked by a linear scan before parsing. */
  readonly maxDepth: number;
};

const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes the base64 SAMLResponse form field into bytes. Strict: whitespace is tolerated (IdPs wrap lines),
 * anything else outside the base64 alphabet is rejected instead of silently skipped as Buffer.from would.
 */
export const decodeBase64Message = (encoded: string, limits: XmlLimits): Buffer => {
  // 4/3 expansion plus line breaks: refuse before allocating anything large.
  if (encoded.length > Math.ceil((limits.maxBytes * 4) / 3) + limits.maxBytes / 32 + 16) {
    throw samlError('size', `the message is larger than ${limits.maxBytes} bytes`);
  }
  const compact = encoded.replace(/[\r\n\t ]/g, '');
  if (compact.length === 0) throw samlError('encoding', 'the SAMLResponse is empty');
  if (compact.length % 4 !== 0 || !base64Shape.test(compact)) {
    throw samlError('encoding', 'the SAMLResponse is not valid base64');
  }
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length > limits.maxBytes) throw samlError('size', `the message is larger than ${limits.maxBytes} bytes`);
  return bytes;
};

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Bytes to text: UTF-8 only (SAML bindings use it; anything else is a sign of tampering or a broken IdP). */
export const decodeUtf8Xml = (bytes: Buffer): string => {
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) {
    throw samlError('encoding', 'UTF-16 documents are not accepted; the IdP must send UTF-8');
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (error) {
    throw samlError('encoding', 'the document is not valid UTF-8', error);
  }
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/i.exec(text)?.[1];
  if (declared !== undefined && declared.toLowerCase() !== 'utf-8') {
    throw samlError('encoding', `the document declares encoding ${declared.slice(0, 20)}; only UTF-8 is accepted`);
  }
  return text;
};

/** Nesting depth by a linear scan of tags, so hostile depth never reaches a recursive walker. */
const assertDepth = (xml: string, maxDepth: number): void => {
  let depth = 0;
  const tags = /<(\/?)([A-Za-z_][^\s/>]*)[^>]*?(\/?)>/g;
  for (let match = tags.exec(xml); match !== null; match = tags.exec(xml)) {
    if (match[1] === '/') depth -= 1;
    else if (match[3] !== '/') {
      depth += 1;
      if (depth > maxDepth) throw samlError('xml', `elements are nested deeper than ${maxDepth} levels`);
    }
  }
};

/**
 * Parses untrusted XML text into a DOM: no DTDs (no entity expansion, no XXE), one root element, well-formed,
 * bounded size and depth. Any parser warning is treated as an error.
 */
export const parseUntrustedXml = (xml: string, limits: XmlLimits): Document => {
  if (Buffer.byteLength(xml, 'utf8') > limits.maxBytes) {
    throw samlError('size', `the message is larger than ${limits.maxBytes} bytes`);
  }
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw samlError('xml', 'documents with a DTD (DOCTYPE/ENTITY) are refused');
  assertDepth(xml, limits.maxDepth);
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        throw new Error(`${level}: ${message}`);
      },
    }).parseFromString(xml, 'text/xml');
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]?.slice(0, 160) : 'unparseable';
    throw samlError('xml', `the document is not well-formed XML (${reason})`, error);
  }
  const elements = Array.from(doc.childNodes).filter((node) => node.nodeType === node.ELEMENT_NODE);
  if (elements.length !== 1 || doc.documentElement === null) {
    throw samlError('xml', 'the document must have exactly one root element');
  }
  return doc;
};
