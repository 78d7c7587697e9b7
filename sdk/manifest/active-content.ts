/**
 * Content types a browser runs as a document of the origin that served it: HTML and XHTML, SVG,
 * every XML type (XSLT and XHTML namespaces make any XML document scriptable), and
 * multipart/x-mixed-replace (whose parts are rendered as documents). Module answers share the web
 * console's origin (DESIGN, wave 3: module answers never run as active content there), so manifests
 * may not declare them and the host sends one a manifest predates this rule with as a download.
 * Scripts (application/javascript) stay allowed: a browser runs them only when a page includes them,
 * which is how a widget's embed script is meant to be used.
 */

/** Whether `contentType` (parameters such as charset allowed) is one a browser would render and run. */
export function isActiveContentType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return (
    type === 'text/html' ||
    type === 'application/xhtml+xml' ||
    type === 'text/xml' ||
    type === 'text/xsl' ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'multipart/x-mixed-replace'
  );
}
