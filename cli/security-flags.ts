/**
 * kube-apiserver's transport and security flags, as `kubesim apiserver` takes them and
 * `kubesim up` forwards them: HTTPS with the cluster CA unless --insecure-http, a static token
 * file, the authorization mode and whether requests without a credential are anonymous.
 */
import { resolve } from 'node:path';
import type { StartApiServerOptions } from '../apiserver/start-api-server.js';
import { type FlagSpec, type Flags, UsageError } from './args.js';

export const AUTHORIZATION_MODES = ['AlwaysAllow', 'RBAC'] as const;

export const apiserverSecurityFlags: Record<string, FlagSpec> = {
  'insecure-http': {
    type: 'boolean',
    description: 'serve plain HTTP with no authentication and everything allowed (default: HTTPS with the cluster CA, client certificates)',
    default: false,
  },
  'token-auth-file': { type: 'string', description: 'static bearer tokens: CSV lines token,user,uid,"group1,group2"' },
  'authorization-mode': { type: 'string', description: `${AUTHORIZATION_MODES.join(' or ')} (HTTPS only)`, default: 'AlwaysAllow' },
  'anonymous-auth': { type: 'boolean', description: 'a request without a credential is system:anonymous (else 401)', default: true },
};

/** securityOptionsFromFlags turns the flags into startApiServer options; wrong values are usage errors. */
export function securityOptionsFromFlags(flags: Flags): Pick<StartApiServerOptions, 'tls' | 'tokenAuthFile' | 'security'> {
  const mode = String(flags['authorization-mode']);
  if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--authorization-mode must be one of ${AUTHORIZATION_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const tokenAuthFile = flags['token-auth-file'] === undefined ? undefined : String(flags['token-auth-file']);
  if (flags['insecure-http']) return { tls: false, tokenAuthFile };
  return {
    tls: true,
    tokenAuthFile,
    security: { authorization: mode as (typeof AUTHORIZATION_MODES)[number], anonymous: flags['anonymous-auth'] !== false },
  };
}

/** forwardedSecurityArgs are the flags `kubesim up` passes on to its API server. */
export function forwardedSecurityArgs(flags: Flags): string[] {
  if (flags['insecure-http']) return ['--insecure-http'];
  const tokens = flags['token-auth-file'] === undefined ? [] : ['--token-auth-file', resolve(String(flags['token-auth-file']))];
  return ['--authorization-mode', String(flags['authorization-mode']), `--anonymous-auth=${flags['anonymous-auth'] !== false}`, ...tokens];
}
