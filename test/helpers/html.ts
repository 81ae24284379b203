// An HTML document (or an SVG file) read with parse5, as a browser's parser reads it, and the few
// questions the report tests ask of it: its elements, their text, and every reference to elsewhere.
import { parse, parseFragment } from 'parse5';

export interface Element {
  nodeName: string;
  tagName: string;
  attrs: { name: string; value: string; prefix?: string }[];
  childNodes: Node[];
}
type Node = Element | { nodeName: string; value?: string; childNodes?: Node[] };

export function htmlDocument(html: string): Element {
  return parse(html) as unknown as Element;
}

export function fragment(markup: string): Element {
  return parseFragment(markup) as unknown as Element;
}

/** Every element under `root`, in document order. */
export function elements(root: Node, tag?: string): Element[] {
  const found: Element[] = [];
  const visit = (node: Node) => {
    if ('tagName' in node && (tag === undefined || node.tagName === tag)) found.push(node);
    for (const child of node.childNodes ?? []) visit(child);
  };
  visit(root);
  return found;
}

export function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((each) => (each.prefix ? `${each.prefix}:${each.name}` : each.name) === name)?.value;
}

export function textOf(node: Node): string {
  if (node.nodeName === '#text') return (node as { value: string }).value;
  return (node.childNodes ?? []).map(textOf).join('');
}

/** Attributes that make a browser fetch (or navigate to) something. */
const FETCHING = new Set([
  'src',
  'href',
  'xlink:href',
  'srcset',
  'action',
  'formaction',
  'poster',
  'data',
  'background',
  'ping',
  'manifest',
]);

/** Each reference to something outside the document: a fetching attribute that is not a fragment or data:, a url() or @import in a style. */
export function externalReferences(root: Node): string[] {
  const found: string[] = [];
  for (const element of elements(root)) {
    for (const each of element.attrs) {
      const name = each.prefix ? `${each.prefix}:${each.name}` : each.name;
      if (FETCHING.has(name) && !/^(#|data:)/.test(each.value.trim()))
        found.push(`<${element.tagName} ${name}="${each.value}">`);
      if (name === 'style' && /url\(|@import/i.test(each.value))
        found.push(`<${element.tagName} style="${each.value}">`);
    }
    if (element.tagName === 'style' && /url\(|@import/i.test(textOf(element)))
      found.push('a <style> that imports or fetches');
  }
  return found;
}
