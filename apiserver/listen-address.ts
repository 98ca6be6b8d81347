/**
 * What the address the API server listens on means for its clients: whether only this machine
 * can reach it, and the URL a client on this machine should use (a wildcard address is where
 * to listen, not where to connect).
 */
import { isIP } from 'node:net';

/** isLoopbackHost says whether listening on `host` keeps the server to this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  return name === 'localhost' || name === '::1' || (isIP(name) === 4 && name.startsWith('127.'));
}

/** serverUrl is the URL clients on this machine use for a server listening on host:port. */
export function serverUrl(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const name = host.replace(/^\[|\]$/g, '');
  if (name === '0.0.0.0' || name === '') return `${scheme}://127.0.0.1:${port}`;
  if (name === '::') return `${scheme}://[::1]:${port}`;
  return isIP(name) === 6 ? `${scheme}://[${name}]:${port}` : `${scheme}://${name}:${port}`;
}

/** portInUseMessage says what to do when the API server's port is taken. */
export function portInUseMessage(port: number | string): string {
  return `port ${String(port)} is already in use: stop the other cluster (\`kubesim down\`), or choose another port with --port`;
}
