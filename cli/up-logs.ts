/**
 * The logs of `kubesim up`: each process's JSON lines go whole to <logDir>/<name>.log (the API
 * server's to apiserver.log, the supervised components' through the Supervisor), at info or
 * more verbose; the terminal shows the entries at --log-level and above as short lines
 * (cli/log-format.ts), coloured on a terminal.
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../controllers/runtime/types.js';
import { createLogger, LOG_LEVELS, type LogLevel, type ProcessLogger } from '../controllers/runtime/logger.js';
import { createTerminalLog, useColour } from './log-format.js';

/** The name the API server's lines carry and its log file is named after. */
export const API_SERVER_COMPONENT = 'apiserver';

export interface UpLogs {
  /** The level every process logs at: info, or debug when the terminal asks for it. */
  fileLevel: LogLevel;
  /** Prints one line a process wrote on the terminal, if its level is shown (the Supervisor's onOutput). */
  print: (source: string, line: string) => void;
  /** The API server's logger: its file and the terminal. */
  apiServerLogger: ProcessLogger;
  /** Flushes and closes the API server's log file. */
  close(): Promise<void>;
}

export function createUpLogs(options: { logDir: string; terminalLevel: LogLevel; clock: Clock }): UpLogs {
  const fileLevel: LogLevel = LOG_LEVELS[options.terminalLevel] < LOG_LEVELS.info ? options.terminalLevel : 'info';
  const print = createTerminalLog({ out: process.stdout, threshold: options.terminalLevel, colour: useColour(process.stdout) });
  mkdirSync(options.logDir, { recursive: true });
  const file = createWriteStream(join(options.logDir, `${API_SERVER_COMPONENT}.log`), { flags: 'a' });
  const destination = {
    write(line: string): void {
      if (!file.writableEnded) file.write(line);
      print(API_SERVER_COMPONENT, line);
    },
  };
  return {
    fileLevel,
    print,
    apiServerLogger: createLogger({ component: API_SERVER_COMPONENT, level: fileLevel, clock: options.clock, destination }),
    close: () => new Promise<void>((done) => file.end(done)),
  };
}
