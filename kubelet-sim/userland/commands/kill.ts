import { isGnu, type ProgramContext } from '../process.js';

const SIGNALS: Record<string, number> = { HUP: 1, INT: 2, QUIT: 3, KILL: 9, USR1: 10, USR2: 12, TERM: 15, CONT: 18, STOP: 19 };

/** kill [-SIGNAL | -s SIGNAL] PID…, kill -l. PID 1 is the container's main process: as in a real
 * container, a process inside cannot kill it (the signal has no handler there), so nothing happens. */
export function kill({ argv, stdout, stderr, container }: ProgramContext): number {
  let signal = 15;
  let args = argv.slice(1);
  if (args[0] === '-l') {
    stdout.write(`${Object.keys(SIGNALS).join(' ')}\n`);
    return 0;
  }
  if (args[0] === '-s') {
    signal = signalNumber(args[1] ?? '') ?? -1;
    args = args.slice(2);
  } else if (args[0]?.startsWith('-')) {
    signal = signalNumber(args[0].slice(1)) ?? -1;
    args = args.slice(1);
  }
  if (signal < 0 || args.length === 0) {
    stderr.write('kill: usage: kill [-s SIGNAL | -SIGNAL] PID...\n');
    return signal < 0 ? 1 : 2;
  }
  let status = 0;
  for (const arg of args) {
    const pid = Number(arg);
    if (pid === 1 && container.processes.has(1)) continue;
    const killer = container.killers.get(pid);
    if (!killer) {
      stderr.write(isGnu(container) ? `kill: (${arg}) - No such process\n` : `sh: can't kill pid ${arg}: No such process\n`);
      status = 1;
      continue;
    }
    killer(signal);
  }
  return status;
}

function signalNumber(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  return SIGNALS[text.toUpperCase().replace(/^SIG/, '')];
}
