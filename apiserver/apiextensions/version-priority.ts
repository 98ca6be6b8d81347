/**
 * Kubernetes' version ordering (apimachinery's CompareKubeAwareVersionStrings), which orders a
 * CRD's versions in discovery: GA before beta before alpha, higher numbers first within each,
 * then names that are not Kubernetes versions, alphabetically. v1 > v11beta2 > v10beta3 >
 * v3beta1 > v12alpha1 > v11alpha2 > foo1 > foo10.
 */

interface ParsedVersion {
  major: number;
  /** 2 = GA, 1 = beta, 0 = alpha. */
  stability: number;
  minor: number;
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;

function parse(version: string): ParsedVersion | undefined {
  const match = KUBE_VERSION.exec(version);
  if (!match) return undefined;
  const stability = match[2] === undefined ? 2 : match[2] === 'beta' ? 1 : 0;
  return { major: Number(match[1]), stability, minor: match[3] === undefined ? 0 : Number(match[3]) };
}

/** compareVersionPriority sorts versions highest priority first (negative when `a` comes first). */
export function compareVersionPriority(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa && pb) {
    if (pa.stability !== pb.stability) return pb.stability - pa.stability;
    if (pa.major !== pb.major) return pb.major - pa.major;
    return pb.minor - pa.minor;
  }
  if (pa) return -1;
  if (pb) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
