/** A redis server enough for a port-forward lesson: PING, ECHO, SET, GET, DEL in RESP or inline. */
import { textOf } from '../shell/streams.js';
import type { ServerFactory } from './connection.js';

/** parseCommands takes the complete commands from buffered text, leaving a partial one. */
function parseCommands(text: string): { commands: string[][]; rest: string } {
  const commands: string[][] = [];
  let rest = text;
  for (;;) {
    if (rest.startsWith('*')) {
      const lines = rest.split('\r\n');
      const count = Number(lines[0]!.slice(1));
      if (lines.length < 1 + count * 2 + 1) return { commands, rest };
      const args: string[] = [];
      for (let i = 0; i < count; i++) args.push(lines[2 + i * 2]!);
      commands.push(args);
      rest = lines.slice(1 + count * 2).join('\r\n');
      continue;
    }
    const newline = rest.indexOf('\n');
    if (newline < 0) return { commands, rest };
    const line = rest.slice(0, newline).replace(/\r$/, '').trim();
    rest = rest.slice(newline + 1);
    if (line) commands.push(line.split(/\s+/));
  }
}

const bulk = (value: string | undefined) => (value === undefined ? '$-1\r\n' : `$${Buffer.byteLength(value)}\r\n${value}\r\n`);

export function redisServer(store: Map<string, string>): ServerFactory {
  return (reply, close) => {
    let buffer = '';
    return {
      receive(data) {
        const { commands, rest } = parseCommands(buffer + textOf(data));
        buffer = rest;
        for (const [name = '', ...args] of commands) {
          const command = name.toUpperCase();
          if (command === 'PING') reply(args[0] === undefined ? '+PONG\r\n' : bulk(args[0]));
          else if (command === 'ECHO') reply(bulk(args[0]));
          else if (command === 'SET' && args.length >= 2) {
            store.set(args[0]!, args[1]!);
            reply('+OK\r\n');
          } else if (command === 'GET') reply(bulk(store.get(args[0] ?? '')));
          else if (command === 'DEL') reply(`:${args.filter((key) => store.delete(key)).length}\r\n`);
          else if (command === 'QUIT') {
            reply('+OK\r\n');
            return close();
          } else reply(`-ERR unknown command '${name}', with args beginning with: ${args.map((a) => `'${a}' `).join('')}\r\n`);
        }
      },
    };
  };
}
