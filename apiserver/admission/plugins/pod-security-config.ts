/**
 * PodSecurity's configuration, as kube-apiserver reads it from the AdmissionConfiguration file
 * of --admission-control-config-file (a PodSecurityConfiguration,
 * pod-security.admission.config.k8s.io/v1): the default level and version of each mode for
 * namespaces without labels, and the exemptions — requests by these usernames, pods in these
 * namespaces, pods of these runtime classes are not evaluated.
 *
 * ```yaml
 * apiVersion: apiserver.config.k8s.io/v1
 * kind: AdmissionConfiguration
 * plugins:
 * - name: PodSecurity
 *   configuration:            # or `path: pod-security.yaml`, relative to this file
 *     apiVersion: pod-security.admission.config.k8s.io/v1
 *     kind: PodSecurityConfiguration
 *     defaults: { enforce: privileged, enforce-version: latest, warn: restricted }
 *     exemptions: { usernames: [], runtimeClasses: [], namespaces: [kube-system] }
 * ```
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { LEVEL_ERROR, MODES, type Mode, type Policy, parseLevel, parseVersion, VERSION_ERROR } from './pod-security-policy.js';

/** PodSecurityConfiguration's fields (its v1 JSON names). */
export interface PodSecurityConfiguration {
  defaults?: Partial<Record<Mode | `${Mode}-version`, string>>;
  exemptions?: { usernames?: string[]; namespaces?: string[]; runtimeClasses?: string[] };
}

/** The configuration checked and ready for the request path (sets, parsed defaults). */
export interface PodSecuritySettings {
  defaults: Policy;
  exemptUsernames: ReadonlySet<string>;
  exemptNamespaces: ReadonlySet<string>;
  exemptRuntimeClasses: ReadonlySet<string>;
}

/** podSecuritySettings checks a configuration (kube's defaulting: privileged, latest) and
 * readies it; a bad level or version throws, as kube-apiserver refuses to start. */
export function podSecuritySettings(configuration: PodSecurityConfiguration = {}): PodSecuritySettings {
  const problems: string[] = [];
  const read = (mode: Mode) => {
    const levelText = configuration.defaults?.[mode] || 'privileged';
    const versionText = configuration.defaults?.[`${mode}-version`] || 'latest';
    const level = parseLevel(levelText);
    const version = parseVersion(versionText);
    if (level === undefined) problems.push(`defaults.${mode}: Invalid value: ${JSON.stringify(levelText)}: ${LEVEL_ERROR}`);
    if (version === undefined) problems.push(`defaults.${mode}-version: Invalid value: ${JSON.stringify(versionText)}: ${VERSION_ERROR}`);
    return { level: level ?? 'privileged', version: version ?? Number.POSITIVE_INFINITY };
  };
  const defaults = Object.fromEntries(MODES.map((mode) => [mode, read(mode)])) as Policy;
  if (problems.length > 0) throw new Error(`PodSecurity configuration error: ${problems.join(', ')}`);
  const exemptions = configuration.exemptions ?? {};
  return {
    defaults,
    exemptUsernames: new Set(exemptions.usernames ?? []),
    exemptNamespaces: new Set(exemptions.namespaces ?? []),
    exemptRuntimeClasses: new Set(exemptions.runtimeClasses ?? []),
  };
}

interface AdmissionConfiguration {
  kind?: string;
  plugins?: Array<{ name?: string; path?: string; configuration?: PodSecurityConfiguration & { kind?: string } }>;
}

/** podSecurityFromAdmissionConfigFile reads PodSecurity's entry of an AdmissionConfiguration
 * file (inline `configuration`, or a `path` relative to the file); undefined when it has none. */
export function podSecurityFromAdmissionConfigFile(file: string): PodSecurityConfiguration | undefined {
  const document = parse(readFileSync(file, 'utf8')) as AdmissionConfiguration | null;
  if (document?.kind !== 'AdmissionConfiguration') throw new Error(`${file}: not an AdmissionConfiguration (kind: ${String(document?.kind)})`);
  const entry = document.plugins?.find((plugin) => plugin.name === 'PodSecurity');
  if (!entry) return undefined;
  const configuration = entry.configuration ?? (entry.path ? parse(readFileSync(resolve(dirname(file), entry.path), 'utf8')) : undefined);
  if (configuration && configuration.kind !== 'PodSecurityConfiguration') {
    throw new Error(`${file}: PodSecurity's configuration must be a PodSecurityConfiguration (kind: ${String(configuration.kind)})`);
  }
  return configuration ?? undefined;
}
