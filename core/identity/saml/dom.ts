import type { Document, Element } from '@xmldom/xmldom';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  xenc: 'http://www.w3.org/2001/04/xmlenc#',
  xenc11: 'http://www.w3.org/2009/xmlenc11#',
} as const;

const isElement = (node: unknown): node is Element =>
  typeof node === 'object' && node !== null && (node as { nodeType?: number }).nodeType === 1;

/** Direct children of `parent` with the given namespace and local name. */
export const childrenNamed = (parent: Element, ns: string, localName: string): Element[] =>
  Array.from(parent.childNodes).filter(
    (node): node is Element => isElement(node) && node.namespaceURI === ns && node.localName === localName,
  );

/** The single direct child with that name, or undefined; more than one is reported by `onMany`. */
export const onlyChild = (parent: Element, ns: string, localName: string, onMany: () => never): Element | undefined => {
  const found = childrenNamed(parent, ns, localName);
  if (found.length > 1) onMany();
  return found[0];
};

/** Every element of the document (or subtree) with that name, in document order. */
export const descendantsNamed = (root: Document | Element, ns: string, localName: string): Element[] =>
  Array.from(root.getElementsByTagNameNS(ns, localName));

/** Every element in document order, walked iteratively (depth is bounded before parsing anyway). */
export const allElements = (doc: Document): Element[] => Array.from(doc.getElementsByTagName('*'));

/**
 * Full text of an element: all descendant text nodes joined. Comments are skipped but never split the value,
 * so `user@evil.com<!---->.example.org` reads as the whole string (the comment-injection defence).
 */
export const fullText = (element: Element): string => (element.textContent ?? '').trim();

export const attr = (element: Element, name: string): string | undefined => {
  const value = element.getAttribute(name);
  return value === null || value === '' ? undefined : value;
};
