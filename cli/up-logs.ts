/**
 * The logs of `kubesim up`: each process's JSON lines go whole to <logDir>/<name>.log (those of
 * the API server and of the supervisor, both in the up process, to apiserver.log and
 * supervisor.log; the supervised components' through the Supervisor), at info or more verbose;
 * the terminal shows the entries at --log-level and above as short lines (cli/log-format.ts),
 * coloured on a terminal.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createLogger, LOG_LEVELS, type LogLevel, type ProcessLogger } from '../controllers/runtime/logger.js';
import type { Clock } from '../controllers/runtime/types.js';
import { createTerminalLog, useColour } from './log-format.js';

export interface UpLogs {
  /** The level every process logs at: info, or debug when the terminal asks for it. */
  fileLevel: LogLevel;
  /** Prints one line a process wrote on the terminal, if its level is shown (the Supervisor's onOutput). */
  print: (source: string, line: string) => void;
  /** A logger of the up process itself, writing to <component>.log and the terminal. */
  logger(component: string): ProcessLogger;
  /** Flushes and closes the files of logger(). */
  close(): Promise<void>;
}

export function createUpLogs(options: { logDir: string; terminalLevel: LogLevel; clock: Clock }): UpLogs {
  const fileLevel: LogLevel = LOG_LEVELS[options.terminalLevel] < LOG_LEVELS.info ? options.terminalLevel : 'info';
  const print = createTerminalLog({ out: process.stdout, threshold: options.terminalLevel, colour: useColour(process.stdout) });
  mkdirSync(options.logDir, { recursive: true });
  const files: WriteStream[] = [];
  const logger = (component: string): ProcessLogger => {
    const file = createWriteStream(join(options.logDir, `${component}.log`), { flags: 'a' });
    // A log file that cannot be written costs that file, never the cluster.
    file.once('error', (err) => print('kubesim', `${JSON.stringify({ level: 'warn', msg: `cannot write ${component}.log: ${err.message}` })}\n`));
    files.push(file);
    const destination = {
      write(line: string): void {
        if (!file.writableEnded) file.write(line);
        print(component, line);
      },
    };
    return createLogger({ component, level: fileLevel, clock: options.clock, destination });
  };
  return {
    fileLevel,
    print,
    logger,
    close: async () => void (await Promise.all(files.map((file) => new Promise<void>((done) => file.end(done))))),
  };
}
