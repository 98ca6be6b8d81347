import type { ProgramContext } from '../process.js';
import { bytesOfEscaped, interpretEscapes } from './escapes.js';

/** echo [-neE] args: busybox and bash flags; -e interprets escapes. */
export function echo({ argv, stdout }: ProgramContext): number {
  let newline = true;
  let escapes = false;
  let i = 1;
  for (; i < argv.length && /^-[neE]+$/.test(argv[i]!); i++) {
    for (const flag of argv[i]!.slice(1)) {
      if (flag === 'n') newline = false;
      else escapes = flag === 'e';
    }
  }
  const text = argv.slice(i).join(' ');
  if (!escapes) {
    stdout.write(newline ? `${text}\n` : text);
    return 0;
  }
  const out = interpretEscapes(text);
  stdout.write(bytesOfEscaped(out.stop || !newline ? out.text : `${out.text}\n`));
  return 0;
}
