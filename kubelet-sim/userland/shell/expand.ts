/**
 * Word expansion: parameters (`$x`, `${x:-d}`, `$?`, `$@`), command substitution, arithmetic,
 * then field splitting of unquoted results and pathname globbing of unquoted `*` and `?`.
 */
import { joinPath } from '../vfs.js';
import { evaluateArithmetic } from './arith.js';
import type { Word, WordPart } from './ast.js';
import { ExitSignal, type Shell, type ShellIo } from './interpreter.js';

/** expandText expands a word into one string (assignments, redirection targets, `case` words). */
export async function expandText(shell: Shell, word: Word, io: ShellIo): Promise<string> {
  let text = '';
  for (const part of word) text += (await partValues(shell, part, io)).join(' ');
  return text;
}

/** expandFields expands a word into the fields a command sees. */
export async function expandFields(shell: Shell, word: Word, io: ShellIo): Promise<string[]> {
  const fields: string[] = [];
  let current = '';
  let started = false;
  let globbable = false;
  const end = () => {
    if (started) fields.push(globbable ? `\u0000${current}` : current);
    current = '';
    started = false;
    globbable = false;
  };
  for (const part of word) {
    const values = await partValues(shell, part, io);
    if (part.kind === 'lit') {
      current += part.text;
      started ||= part.quoted || part.text !== '';
      if (!part.quoted && /[*?]/.test(part.text)) globbable = true;
      continue;
    }
    if (part.quoted) {
      // "$@" gives one field per positional parameter; everything else joins into the current field.
      values.forEach((value, i) => {
        if (i > 0) end();
        current += value;
        started = true;
      });
      if (values.length === 0 && part.kind !== 'param') started = true;
      continue;
    }
    const pieces = values.join(' ').split(/[ \t\n]+/);
    pieces.forEach((piece, i) => {
      if (i > 0) end();
      current += piece;
      if (piece !== '') started = true;
    });
  }
  end();
  return fields.flatMap((field) => (field.startsWith('\u0000') ? glob(shell, field.slice(1)) : [field]));
}

async function partValues(shell: Shell, part: WordPart, io: ShellIo): Promise<string[]> {
  switch (part.kind) {
    case 'lit':
      return [part.text];
    case 'sub':
      return [await shell.substitute(part.script, io)];
    case 'arith': {
      try {
        return [String(evaluateArithmetic(expandInner(shell, part.expression), (name) => shell.vars.get(name)))];
      } catch {
        io.stderr.write(shell.diagnostic(`arithmetic syntax error`));
        throw new ExitSignal(2);
      }
    }
    case 'param':
      return paramValues(shell, part, io);
  }
}

/** expandInner replaces `$x`, `${x}` and `$?` inside an arithmetic expression. */
function expandInner(shell: Shell, text: string): string {
  return text.replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*|[?#$]|\d)\}?/g, (_match, name: string) => {
    const value = special(shell, name);
    return Array.isArray(value) ? value.join(' ') : (value ?? '');
  });
}

function special(shell: Shell, name: string): string | string[] | undefined {
  switch (name) {
    case '?':
      return String(shell.status);
    case '#':
      return String(shell.positional.length);
    case '$':
      return String(shell.pid);
    case '!':
      return shell.lastBackground ? String(shell.lastBackground) : '';
    case '@':
    case '*':
      return shell.positional;
    case '-':
      return '';
    case '0':
      return shell.options.name;
  }
  if (/^\d+$/.test(name)) return shell.positional[Number(name) - 1];
  return shell.vars.get(name);
}

async function paramValues(shell: Shell, part: Extract<WordPart, { kind: 'param' }>, io: ShellIo): Promise<string[]> {
  const raw = special(shell, part.name);
  const op = part.op;
  if (op?.op === '#') return [String((Array.isArray(raw) ? raw.join(' ') : (raw ?? '')).length)];
  const value = Array.isArray(raw) ? (part.name === '*' || !part.quoted ? [raw.join(' ')] : raw) : raw === undefined ? undefined : [raw];
  if (!op) return value ?? [];
  const unset = value === undefined || (op.colon && value.join('') === '');
  switch (op.op) {
    case '-':
      return unset ? [await expandText(shell, op.word, io)] : value;
    case '=': {
      if (!unset) return value;
      const assigned = await expandText(shell, op.word, io);
      shell.vars.set(part.name, assigned);
      return [assigned];
    }
    case '+':
      return unset ? [] : [await expandText(shell, op.word, io)];
    case '?': {
      if (!unset) return value;
      const message = (await expandText(shell, op.word, io)) || 'parameter not set';
      io.stderr.write(shell.diagnostic(`${part.name}: ${message}`));
      throw new ExitSignal(shell.options.dialect === 'bash' ? 1 : 2);
    }
  }
}

/** glob expands `*` and `?` against the container's filesystem, sorted; no match keeps the pattern. */
function glob(shell: Shell, pattern: string): string[] {
  const absolute = pattern.startsWith('/');
  const parts = pattern.split('/').filter((part) => part !== '');
  let paths: string[][] = [[]];
  for (const part of parts) {
    if (!/[*?]/.test(part)) {
      paths = paths.map((path) => [...path, part]);
      continue;
    }
    const regex = new RegExp(
      `^${part
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
    );
    paths = paths.flatMap((path) => {
      const dir = shell.container.fs.stat(absolute ? joinPath(path) : path.join('/') || '.', shell.cwd);
      if (dir?.kind !== 'dir') return [];
      const names = [...dir.entries.keys()].filter((name) => regex.test(name) && (part.startsWith('.') || !name.startsWith('.')));
      return names.sort().map((name) => [...path, name]);
    });
  }
  const found = paths.map((path) => (absolute ? joinPath(path) : path.join('/'))).filter((path) => shell.container.fs.stat(path, shell.cwd));
  return found.length > 0 ? found : [pattern];
}
