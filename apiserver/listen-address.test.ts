import { describe, expect, it } from 'vitest';
import { isLoopbackHost, serverUrl } from './listen-address.js';

describe('listen addresses', () => {
  it('tells loopback from addresses other machines reach', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'my-laptop.local', '10.0.0.1']) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('gives clients a URL they can connect to, never a wildcard', () => {
    expect(serverUrl('0.0.0.0', 6443)).toBe('http://127.0.0.1:6443');
    expect(serverUrl('::', 6443)).toBe('http://[::1]:6443');
    expect(serverUrl('::1', 80)).toBe('http://[::1]:80');
    expect(serverUrl('127.0.0.1', 1)).toBe('http://127.0.0.1:1');
  });
});
