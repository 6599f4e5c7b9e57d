/** Text made safe inside XML and HTML: the sitemaps and the mails' HTML bodies. */
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
