/**
 * The cheapest main process: a container whose whole command is `sleep N` (or `sleep infinity`)
 * — the idle container of countless manifests — needs no userland to run it: a cluster-clock
 * timer ends it with 0. Its userland is still built if someone execs or attaches (lazily, by
 * the streaming endpoints), where `ps` shows `sleep` as PID 1.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';

const SLEEP_UNITS: Record<string, number> = { '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** plainSleepMs: how long a `sleep` main process sleeps (Infinity for `infinity`), or undefined
 * when the command is anything else (or a form only the userland's sleep should judge). */
export function plainSleepMs(container: DeepReadonly<Container>): number | undefined {
  const argv = container.command?.length ? [...container.command, ...(container.args ?? [])] : container.args;
  if (argv?.length !== 2 || !['sleep', '/bin/sleep', '/usr/bin/sleep'].includes(argv[0] ?? '')) return undefined;
  const operand = argv[1] ?? '';
  if (/^inf(inity)?$/i.test(operand)) return Number.POSITIVE_INFINITY;
  const match = /^(\d{1,9})([smhd]?)$/.exec(operand);
  return match ? Number(match[1]) * (SLEEP_UNITS[match[2] ?? ''] ?? 1000) : undefined;
}
