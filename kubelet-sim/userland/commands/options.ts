/** parseOptions splits argv into single-letter flags (`-rf`, `-n 5`, `-5`) and operands; letters
 * in `withValue` take the next word (or the rest of the cluster) as their value. `--` ends options. */
export function parseOptions(argv: readonly string[], withValue = ''): { flags: Map<string, string>; operands: string[]; bad?: string } {
  const flags = new Map<string, string>();
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      operands.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      operands.push(arg);
      continue;
    }
    if (arg.startsWith('--')) {
      const [name, value] = arg.slice(2).split('=', 2) as [string, string | undefined];
      flags.set(`--${name}`, value ?? '');
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (/\d/.test(letter) && j === 1) {
        flags.set('#', arg.slice(1));
        break;
      }
      if (withValue.includes(letter)) {
        const value = j + 1 < arg.length ? arg.slice(j + 1) : argv[++i];
        if (value === undefined) return { flags, operands, bad: letter };
        flags.set(letter, value);
        break;
      }
      flags.set(letter, '');
    }
  }
  return { flags, operands };
}
