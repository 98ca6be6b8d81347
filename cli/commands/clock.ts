/** `kubesim clock`: show or steer the cluster clock of a running cluster — pause, resume,
 * change its speed, or advance it (firing every timer that falls due on the way). Talks to
 * the API server named in the kubeconfig (docs/cluster-time.md). */
import { CLOCK_PATH, type ClusterClockObject } from '../../apiserver/api/kubesim/clock-object.js';
import { type FlagSpec, formatFlagHelp, kubeconfigFlag, parseFlags, UsageError } from '../args.js';
import { call } from './component-control.js';

const flags: Record<string, FlagSpec> = {
  kubeconfig: kubeconfigFlag,
  help: { type: 'boolean', description: 'show this help' },
};

const usage = `Usage: kubesim clock [pause | resume | speed <factor> | advance <duration>] [flags]

Shows the cluster clock, or:
  pause               freeze cluster time (every component stops seeing it move)
  resume              let it run again from where it stood
  speed <factor>      run it <factor> times faster than wall time (0.5, 1, 10, ...)
  advance <duration>  move it forward by a Go duration (90s, 5m, 1h30m), firing every timer
                      that falls due on the way, in order

Flags:
${formatFlagHelp(flags)}`;

/** request maps the action words to the clock API call they make. */
function request(positional: string[]): { method: 'GET' | 'POST'; path: string; body?: unknown } {
  const [action, value, extra] = positional;
  if (extra !== undefined) throw new UsageError(`unexpected argument ${JSON.stringify(extra)}\n\n${usage}`);
  const needsValue = (what: string) => {
    if (value === undefined) throw new UsageError(`${action} needs ${what}\n\n${usage}`);
    return value;
  };
  const noValue = () => {
    if (value !== undefined) throw new UsageError(`${action} takes no argument, got ${JSON.stringify(value)}`);
  };
  switch (action) {
    case undefined:
      return { method: 'GET', path: CLOCK_PATH };
    case 'pause':
    case 'resume':
      noValue();
      return { method: 'POST', path: `${CLOCK_PATH}/${action}` };
    case 'speed': {
      const speed = Number(needsValue('a speed factor such as 10'));
      if (!(speed > 0) || !Number.isFinite(speed)) throw new UsageError(`speed must be a positive number, got ${JSON.stringify(value)}`);
      return { method: 'POST', path: `${CLOCK_PATH}/speed`, body: { speed } };
    }
    case 'advance':
      return { method: 'POST', path: `${CLOCK_PATH}/advance`, body: { duration: needsValue('a duration such as 90s, 5m or 1h30m') } };
    default:
      throw new UsageError(`unknown clock action ${JSON.stringify(action)}\n\n${usage}`);
  }
}

/** describe renders the clock as `kubesim clock` prints it. */
export function describeClock(clock: ClusterClockObject): string {
  const state = clock.paused ? 'paused' : 'running';
  return [`time    ${clock.now}`, `speed   ${clock.speed}`, `state   ${state}`, `mode    ${clock.mode}`].join('\n');
}

export async function clock(argv: string[]): Promise<void> {
  const { flags: parsed, positional } = parseFlags(argv, flags);
  if (parsed['help']) return void console.log(usage);
  const { method, path, body } = request(positional);
  const answer = (await call(String(parsed['kubeconfig']), method, path, body)) as ClusterClockObject;
  console.log(describeClock(answer));
}
