/** `kubesim settle` and `kubesim reset`: wait until a running cluster is quiescent, or bring it
 * back to its just-started state — the HTTP control API (docs/testing-controllers.md) as commands,
 * for shell scripts, tutorials and tests in any language. */

import { parseDuration } from '../../apiserver/api/machinery/duration.js';
import { KUBESIM_API } from '../../apiserver/kubesim/cluster-routes.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { call } from './component-control.js';

const flags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  timeout: { type: 'string', description: 'settle: give up after this long (Go duration)', default: '30s' },
  help: { type: 'boolean', description: 'show this help' },
};

const settleUsage = `Usage: kubesim settle [flags]

Waits until every control loop is idle, no request is in flight and nothing has been written
for a moment; on timeout, says what was still busy.

Flags:
${formatFlagHelp(flags)}`;

export async function settle(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(argv, flags);
  if (parsed['help']) return void console.log(settleUsage);
  if (positional.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positional[0])}\n\n${settleUsage}`);
  const timeoutMs = durationFlag(String(parsed['timeout']));
  const result = (await call(String(parsed['kubeconfig']), 'POST', `${KUBESIM_API}/settle`, { timeoutMs })) as { elapsedMs: number; revision: number };
  console.log(`settled in ${result.elapsedMs} ms (resourceVersion ${result.revision})`);
}

export async function reset(argv: string[]): Promise<void> {
  const { flags: parsed } = parseFlags(argv, flags);
  if (parsed['help'])
    return void console.log(`Usage: kubesim reset [flags]\n\nBrings a running cluster back to its just-started state.\n\nFlags:\n${formatFlagHelp(flags)}`);
  const result = (await call(String(parsed['kubeconfig']), 'POST', `${KUBESIM_API}/reset`)) as {
    created: number;
    updated: number;
    deleted: number;
    elapsedMs: number;
  };
  console.log(`reset in ${result.elapsedMs} ms: ${result.deleted} deleted, ${result.created} re-created, ${result.updated} restored`);
}

function durationFlag(text: string): number {
  try {
    return parseDuration(text);
  } catch (err) {
    throw new UsageError(`--timeout: ${(err as Error).message}`);
  }
}
