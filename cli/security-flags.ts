/**
 * kube-apiserver's transport and security flags, as `kubesim apiserver` takes them and
 * `kubesim up` forwards them: HTTPS with the cluster CA unless --insecure-http, a static token
 * file, the authorization mode, whether requests without a credential are anonymous, and the
 * admission configuration file (PodSecurity's defaults and exemptions).
 */
import { resolve } from 'node:path';
import { podSecurityFromAdmissionConfigFile, podSecuritySettings } from '../apiserver/admission/plugins/pod-security-config.js';
import { parseDuration } from '../apiserver/api/machinery/duration.js';
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
  'service-account-max-token-expiration': {
    type: 'string',
    description: 'the longest a TokenRequest may make a token valid (a Go duration, 1h to 2^32 s); a request for longer gets this (default: no limit)',
  },
  'admission-control-config-file': {
    type: 'string',
    description:
      "an AdmissionConfiguration (kube-apiserver's): PodSecurity's PodSecurityConfiguration — default levels, exempt usernames, namespaces, runtimeClasses",
  },
};

/** securityOptionsFromFlags turns the flags into startApiServer options; wrong values are usage errors. */
export function securityOptionsFromFlags(
  flags: Flags,
): Pick<StartApiServerOptions, 'tls' | 'tokenAuthFile' | 'security' | 'podSecurity' | 'serviceAccountMaxTokenExpirationSeconds'> {
  const mode = String(flags['authorization-mode']);
  if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) {
    throw new UsageError(`--authorization-mode must be one of ${AUTHORIZATION_MODES.join(', ')}, got ${JSON.stringify(mode)}`);
  }
  const tokenAuthFile = flags['token-auth-file'] === undefined ? undefined : String(flags['token-auth-file']);
  const podSecurity = admissionConfiguration(flags);
  const serviceAccountMaxTokenExpirationSeconds = maxTokenExpiration(flags);
  if (flags['insecure-http']) return { tls: false, tokenAuthFile, podSecurity, serviceAccountMaxTokenExpirationSeconds };
  return {
    tls: true,
    tokenAuthFile,
    podSecurity,
    serviceAccountMaxTokenExpirationSeconds,
    security: { authorization: mode as (typeof AUTHORIZATION_MODES)[number], anonymous: flags['anonymous-auth'] !== false },
  };
}

/** maxTokenExpiration reads --service-account-max-token-expiration (seconds; 0 or absent: no
 * limit), held to kube-apiserver's bounds with its message. */
function maxTokenExpiration(flags: Flags): number | undefined {
  const text = flags['service-account-max-token-expiration'];
  if (text === undefined) return undefined;
  let ms: number;
  try {
    ms = parseDuration(String(text));
  } catch (err) {
    throw new UsageError(`--service-account-max-token-expiration: ${(err as Error).message}`);
  }
  if (ms === 0) return undefined;
  if (ms < 3600_000 || ms > 2 ** 32 * 1000) throw new UsageError('the service-account-max-token-expiration must be between 1 hour and 2^32 seconds');
  return Math.floor(ms / 1000);
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
  const maxToken = flags['service-account-max-token-expiration'];
  const expiration = maxToken === undefined ? [] : ['--service-account-max-token-expiration', String(maxToken)];
  if (flags['insecure-http']) return ['--insecure-http', ...expiration, ...admission];
  const tokens = flags['token-auth-file'] === undefined ? [] : ['--token-auth-file', resolve(String(flags['token-auth-file']))];
  return [
    '--authorization-mode',
    String(flags['authorization-mode']),
    `--anonymous-auth=${flags['anonymous-auth'] !== false}`,
    ...tokens,
    ...expiration,
    ...admission,
  ];
}
