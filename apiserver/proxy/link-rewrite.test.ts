import { describe, expect, it } from 'vitest';
import { rewriteHtml, rewriteUrl } from './link-rewrite.js';

const context = {
  pathPrepend: '/api/v1/namespaces/default/services/web/proxy',
  backendHost: '10.244.0.5:80',
  requestHost: '127.0.0.1:8001',
};

describe('the proxy rewrites links as kube-apiserver does', () => {
  it('puts the proxy path in front of absolute paths and of URLs on the backend host', () => {
    expect(rewriteUrl('/login', context)).toBe('/api/v1/namespaces/default/services/web/proxy/login');
    expect(rewriteUrl('/docs/', context)).toBe('/api/v1/namespaces/default/services/web/proxy/docs/');
    expect(rewriteUrl('/', context)).toBe('/api/v1/namespaces/default/services/web/proxy/');
    expect(rewriteUrl('http://10.244.0.5:80/a?b=c#d', context)).toBe('/api/v1/namespaces/default/services/web/proxy/a?b=c#d');
  });

  it('keeps the client’s own host, and leaves relative links, other hosts and other schemes alone', () => {
    expect(rewriteUrl('http://127.0.0.1:8001/a', context)).toBe('http://127.0.0.1:8001/api/v1/namespaces/default/services/web/proxy/a');
    expect(rewriteUrl('style.css', context)).toBe('style.css');
    expect(rewriteUrl('http://nginx.org/', context)).toBe('http://nginx.org/');
    expect(rewriteUrl('mailto:a@b.c', context)).toBe('mailto:a@b.c');
    expect(rewriteUrl('/api/v1/namespaces/default/services/web/proxy/x', context)).toBe('/api/v1/namespaces/default/services/web/proxy/x');
  });

  it('rewrites the URL attributes of HTML tags and nothing else', () => {
    const page = '<html><body><a href="/x">x</a> <a href="http://nginx.org/">n</a><img src=\'/i.png\' alt="/not"><p title="/no">t</p></body></html>';
    expect(rewriteHtml(page, context)).toBe(
      '<html><body><a href="/api/v1/namespaces/default/services/web/proxy/x">x</a> <a href="http://nginx.org/">n</a>' +
        '<img src="/api/v1/namespaces/default/services/web/proxy/i.png" alt="/not"><p title="/no">t</p></body></html>',
    );
  });
});
