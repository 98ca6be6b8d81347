/** AdmissionConfiguration files for tests of --admission-control-config-file. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** writePodSecurityAdmissionConfig writes an AdmissionConfiguration whose PodSecurity
 * configuration is `podSecurity` (YAML lines indented by four spaces) into `dir`, and returns
 * the file's path. */
export function writePodSecurityAdmissionConfig(dir: string, podSecurity: string): string {
  const file = join(dir, `admission-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(
    file,
    `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
${podSecurity}`,
  );
  return file;
}
