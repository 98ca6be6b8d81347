/**
 * kube-apiserver's transport and security flags, as `kubesim apiserver` takes them and
 * `kubesim up` forwards them: HTTPS with the cluster CA unless --insecure-http, a static token
 * file, the authorization mode, whether requests without a credential are anonymous, and the
 * admission configuration file (PodSecurity's defaults and exemptions).
 */
import { resolve } from 'node:path';
import { podSecurityFromAdmissionConfigFile, podSecuritySettings } from '../apiserver/admission/plugins/pod-security-config.js';
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
  'admission-control-config-file': {
    type: 'string',
    description:
      "an AdmissionConfiguration (kube-apiserver's): PodSecurity's PodSecurityConfiguration — default levels, exempt usernames, namespaces, runtimeClasses",
  },
};

/** securityOptionsFromFlags turns the flags into startApiServer options; wrong values are usage errors. */
export function securityOptionsFromFlags(flags: Flags): Pick<StartApiServerOptions, 'tls' | 'tokenAuthFile' | 'security' | 'podSecurity'> {
  const mode = String(flags['authorization-mode']);
  if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--authorization-mode must be one of ${AUTHORIZATION_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const tokenAuthFile = flags['token-auth-file'] === undefined ? undefined : String(flags['token-auth-file']);
  const podSecurity = admissionConfiguration(flags);
  if (flags['insecure-http']) return { tls: false, tokenAuthFile, podSecurity };
  return {
    tls: true,
    tokenAuthFile,
    podSecurity,
    security: { authorization: mode as (typeof AUTHORIZATION_MODES)[number], anonymous: flags['anonymous-auth'] !== false },
  };
}

/** admissionConfiguration reads --admission-control-config-file; an unreadable or invalid one is a usage error. */
function admissionConfiguration(flags: Flags): StartApiServerOptions['podSecurity'] {
  const file = flags['admission-control-config-file'];
  if (file === undefined) return undefined;
  try {
    const configuration = podSecurityFromAdmissionConfigFile(resolve(String(file)));
    podSecuritySettings(configuration); // checked now, so a bad level stops the start with a usage error
    return configuration;
  } catch (err) {
    throw new UsageError(`--admission-control-config-file: ${(err as Error).message}`);
  }
}

/** forwardedSecurityArgs are the flags `kubesim up` passes on to its API server. */
export function forwardedSecurityArgs(flags: Flags): string[] {
  const file = flags['admission-control-config-file'];
  const admission = file === undefined ? [] : ['--admission-control-config-file', resolve(String(file))];
  if (flags['insecure-http']) return ['--insecure-http', ...admission];
  const tokens = flags['token-auth-file'] === undefined ? [] : ['--token-auth-file', resolve(String(flags['token-auth-file']))];
  return ['--authorization-mode', String(flags['authorization-mode']), `--anonymous-auth=${flags['anonymous-auth'] !== false}`, ...tokens, ...admission];
}
