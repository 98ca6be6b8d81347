export class UsageError extends Error {
}
export function parseFlags(argv, specs) {
    const flags = {};
    const positional = [];
    for (const [name, spec] of Object.entries(specs))
        flags[name] = spec.default;
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (!arg.startsWith('--')) {
            positional.push(arg);
            continue;
        }
        const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2);
        const spec = specs[rawName];
        if (!spec)
            throw new UsageError(`unknown flag --${rawName}; known flags: ${Object.keys(specs).map((f) => `--${f}`).join(', ')}`);
        if (spec.type === 'boolean') {
            flags[rawName] = inline === undefined ? true : inline !== 'false';
            continue;
        }
        const value = inline ?? argv[++i];
        if (value === undefined)
            throw new UsageError(`flag --${rawName} needs a value`);
        if (spec.type === 'number' && Number.isNaN(Number(value)))
            throw new UsageError(`flag --${rawName} needs a number, got ${JSON.stringify(value)}`);
        flags[rawName] = spec.type === 'number' ? Number(value) : value;
    }
    return { flags, positional };
}
export function formatFlagHelp(specs) {
    return Object.entries(specs)
        .map(([name, spec]) => `  --${name.padEnd(16)} ${spec.description}${spec.default !== undefined ? ` (default ${String(spec.default)})` : ''}`)
        .join('\n');
}
//# sourceMappingURL=args.js.map