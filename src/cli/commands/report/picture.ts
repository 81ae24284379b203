// An x-ray's Graphviz text laid out as SVG by Graphviz itself (@viz-js/viz: Graphviz compiled to
// WebAssembly), loaded only when a report draws a picture, so no other command pays for it. The SVG
// keeps no XML prolog or DOCTYPE (its DTD is a URL): it is inlined in HTML, or a file of its own.

/** Lays out `dot`; labels come XML-escaped by Graphviz, so server text in them stays text. */
export async function svgOf(dot: string): Promise<string> {
  const { instance } = await import('@viz-js/viz');
  const viz = await instance();
  const svg = viz.renderString(dot, { format: 'svg' });
  return svg.slice(svg.indexOf('<svg'));
}
