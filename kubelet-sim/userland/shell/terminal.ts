/**
 * Terminal: what a TTY between the client and the container does — the line discipline of a
 * terminal in canonical mode (echo typed characters, erase with backspace, deliver whole lines,
 * ^C interrupts the foreground process, ^D at the start of a line ends input) and output
 * post-processing (`\n` becomes `\r\n`).
 */
import type { ProcessIO } from '../contract.js';
import { type Output, Pipe } from './streams.js';

const decoder = new TextDecoder();

export class Terminal {
  private readonly interruptHandlers: Array<() => void> = [];
  readonly output: Output;

  constructor(private readonly io: ProcessIO) {
    this.output = { write: (data) => io.stdout(toCrlf(data)) };
  }

  /** onInterrupt makes handler the receiver of ^C until the returned function is called. */
  onInterrupt(handler: () => void): () => void {
    this.interruptHandlers.push(handler);
    return () => {
      const index = this.interruptHandlers.lastIndexOf(handler);
      if (index >= 0) this.interruptHandlers.splice(index, 1);
    };
  }

  /** cooked: the client's keystrokes as the lines a program reads. Keystrokes are handled as they
   * arrive, whoever reads (^C must reach a running command that reads nothing). */
  cooked(): AsyncIterable<Uint8Array> {
    const lines = new Pipe();
    void this.pump(lines);
    return lines;
  }

  private async pump(lines: Pipe): Promise<void> {
    if (!this.io.stdin) return lines.close();
    let line = '';
    let escapeState = 0;
    for await (const chunk of this.io.stdin) {
      for (const c of decoder.decode(chunk, { stream: true })) {
        if (escapeState > 0) {
          // Skip an escape sequence (arrow keys …): ESC [ params final-byte.
          escapeState = escapeState === 1 && c === '[' ? 2 : escapeState === 2 && !/[@-~]/.test(c) ? 2 : 0;
          continue;
        }
        if (c === '\r' || c === '\n') {
          this.echo('\r\n');
          lines.write(`${line}\n`);
          line = '';
        } else if (c === '\x7f' || c === '\b') {
          if (line) {
            line = line.slice(0, -1);
            this.echo('\b \b');
          }
        } else if (c === '\x03') {
          this.echo('^C\r\n');
          line = '';
          this.interruptHandlers.at(-1)?.();
        } else if (c === '\x04') {
          if (!line) return lines.close();
          lines.write(line);
          line = '';
        } else if (c === '\x15') {
          this.echo('\b \b'.repeat(line.length));
          line = '';
        } else if (c === '\x1b') escapeState = 1;
        else if (c >= ' ' || c === '\t') {
          line += c;
          this.echo(c);
        }
      }
    }
    lines.close();
  }

  private echo(text: string): void {
    this.io.stdout(text);
  }
}

/** toCrlf turns every bare `\n` into `\r\n`, as a terminal's ONLCR output flag does. */
export function toCrlf(data: string | Uint8Array): string | Uint8Array {
  if (typeof data === 'string') return data.replace(/\r?\n/g, '\r\n');
  if (!data.includes(10)) return data;
  const out: number[] = [];
  data.forEach((byte, i) => {
    if (byte === 10 && data[i - 1] !== 13) out.push(13);
    out.push(byte);
  });
  return new Uint8Array(out);
}
