/** A small, strict flag parser: `--name value`, `--name=value`, boolean `--flag`. Unknown
 * flags are errors that say which flags exist. */
export interface FlagSpec {
  type: 'string' | 'number' | 'boolean';
  description: string;
  default?: string | number | boolean;
}

export type Flags = Record<string, string | number | boolean | undefined>;

export class UsageError extends Error {}

export function parseFlags(argv: string[], specs: Record<string, FlagSpec>): { flags: Flags; positional: string[] } {
  const flags: Flags = {};
  const positional: string[] = [];
  for (const [name, spec] of Object.entries(specs)) flags[name] = spec.default;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const spec = specs[rawName];
    if (!spec)
      throw new UsageError(
        `unknown flag --${rawName}; known flags: ${Object.keys(specs)
          .map((f) => `--${f}`)
          .join(', ')}`,
      );
    if (spec.type === 'boolean') {
      flags[rawName] = inline === undefined ? true : inline !== 'false';
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`flag --${rawName} needs a value`);
    if (spec.type === 'number' && Number.isNaN(Number(value))) throw new UsageError(`flag --${rawName} needs a number, got ${JSON.stringify(value)}`);
    flags[rawName] = spec.type === 'number' ? Number(value) : value;
  }
  return { flags, positional };
}

export function formatFlagHelp(specs: Record<string, FlagSpec>): string {
  return Object.entries(specs)
    .map(([name, spec]) => `  --${name.padEnd(16)} ${spec.description}${spec.default !== undefined ? ` (default ${String(spec.default)})` : ''}`)
    .join('\n');
}

/** expandShortFlags rewrites kubectl-style short flags (`-n ns`, `-n=ns`, `-l app=x`) into
 * the long ones `aliases` name (`{ n: 'namespace' }`), so parseFlags can read them. */
export function expandShortFlags(argv: string[], aliases: Record<string, string>): string[] {
  return argv.map((arg) => {
    const match = /^-([A-Za-z])(=.*)?$/s.exec(arg);
    const long = match ? aliases[match[1]!] : undefined;
    return long ? `--${long}${match?.[2] ?? ''}` : arg;
  });
}

/** kubeconfigFlag is the `--kubeconfig` every command that talks to a running cluster takes:
 * $KUBECONFIG, else the file `kubesim up` writes. */
export const kubeconfigFlag: FlagSpec = {
  type: 'string',
  description: 'kubeconfig of the cluster',
  default: process.env['KUBECONFIG'] ?? '.kubesim/kubeconfig',
};
