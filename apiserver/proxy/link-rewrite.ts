/**
 * The link rewriting of kube-apiserver's proxy transport (apimachinery's proxy.Transport), so
 * that a page served through /api/v1/.../proxy/ keeps working in a browser behind
 * `kubectl proxy`: a redirect's Location and, in text/html, the URL attributes of the tags
 * that carry one (a href, img src, form action, ...) are rewritten when they are absolute
 * paths, or absolute URLs on the backend's own host: they get the proxy path in front.
 * Relative links and other hosts are left alone.
 *
 * Unlike Go's HTML tokenizer, which prints every start tag again, only the tags whose URL
 * actually changes are printed again; the rest of the page is passed byte for byte.
 */

/** Which attributes of which tags hold URLs (kube's atomsToAttrs). */
const URL_ATTRIBUTES: Record<string, readonly string[]> = {
  a: ['href'],
  applet: ['codebase'],
  area: ['href'],
  audio: ['src'],
  base: ['href'],
  blockquote: ['cite'],
  body: ['background'],
  button: ['formaction'],
  command: ['icon'],
  del: ['cite'],
  embed: ['src'],
  form: ['action'],
  frame: ['longdesc', 'src'],
  head: ['profile'],
  html: ['manifest'],
  iframe: ['longdesc', 'src'],
  img: ['longdesc', 'src', 'usemap'],
  input: ['src', 'usemap', 'formaction'],
  ins: ['cite'],
  link: ['href'],
  object: ['classid', 'codebase', 'data', 'usemap'],
  q: ['cite'],
  script: ['src'],
  source: ['src'],
  video: ['poster', 'src'],
};

/** What a rewrite needs: the proxy path prefix and the hosts that count as "this backend". */
export interface RewriteContext {
  /** The request path up to and including `/proxy` (kube's PathPrepend). */
  pathPrepend: string;
  /** The backend's host:port, as the request to it named it. */
  backendHost: string;
  /** The Host header the client sent. */
  requestHost: string;
}

/** rewriteUrl is kube's rewriteURL: an absolute path (or a URL on the backend's or the
 * request's own host) gets the proxy prefix, scheme and host dropped; anything else is kept. */
export function rewriteUrl(target: string, context: RewriteContext): string {
  const parsed = parseUrl(target);
  if (!parsed) return target;
  const { origin, host, path, rest } = parsed;
  const differentHost = host !== '' && host !== context.backendHost && host !== context.requestHost;
  if (differentHost || !path.startsWith('/')) return target;
  // A link to the client's own host (kubectl proxy's) keeps it; the backend's host is dropped.
  const kept = host !== '' && host === context.requestHost ? origin : '';
  if (path.startsWith(context.pathPrepend)) return `${kept}${path}${rest}`;
  const joined = `${context.pathPrepend}/${path.replace(/^\/+/, '')}`.replace(/\/+$/, '') || '/';
  return `${kept}${joined}${path.endsWith('/') && joined !== '/' ? '/' : ''}${rest}`;
}

/** parseUrl splits a URL into host, path and what follows (query, fragment); undefined when it
 * is not a URL the rewrite understands (another scheme, such as mailto: or javascript:). */
function parseUrl(target: string): { origin: string; host: string; path: string; rest: string } | undefined {
  const absolute = /^(([a-zA-Z][a-zA-Z0-9+.-]*:)?\/\/([^/?#]*))(.*)$/s.exec(target);
  if (absolute) {
    if (absolute[2] && !/^https?:$/i.test(absolute[2])) return undefined;
    return { origin: absolute[1]!, host: absolute[3]!, ...splitRest(absolute[4]!) };
  }
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(target)) return undefined;
  return { origin: '', host: '', ...splitRest(target) };
}

function splitRest(pathAndRest: string): { path: string; rest: string } {
  const at = pathAndRest.search(/[?#]/);
  return at < 0 ? { path: pathAndRest, rest: '' } : { path: pathAndRest.slice(0, at), rest: pathAndRest.slice(at) };
}

const START_TAG = /<([a-zA-Z][a-zA-Z0-9]*)(\s[^<>]*?)?(\/?)>/g;
const ATTRIBUTE = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** rewriteHtml rewrites the URL attributes of an HTML page's start tags. */
export function rewriteHtml(html: string, context: RewriteContext): string {
  return html.replace(START_TAG, (tag, name: string, attributes: string | undefined, selfClosing: string) => {
    const urlAttributes = URL_ATTRIBUTES[name.toLowerCase()];
    if (!urlAttributes || !attributes) return tag;
    let changed = false;
    const rewritten = [...attributes.matchAll(ATTRIBUTE)].map(([whole, key, ...values]) => {
      const value = values.find((v) => v !== undefined);
      if (value === undefined || !urlAttributes.includes(key!.toLowerCase())) return whole;
      const next = rewriteUrl(decodeEntities(value), context);
      if (next === decodeEntities(value)) return whole;
      changed = true;
      return `${key}="${escapeAttribute(next)}"`;
    });
    return changed ? `<${name} ${rewritten.join(' ')}${selfClosing}>` : tag;
  });
}

function decodeEntities(value: string): string {
  return value.replace(/&(amp|quot|#39|lt|gt);/g, (_m, entity: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[entity]!);
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&#34;').replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
