/**
 * A postgres server enough for a port-forward lesson: the v3 wire protocol's start-up (no TLS,
 * trusted local login as the official image's pg_hba.conf allows from 127.0.0.1, where
 * port-forwarded connections come from), its roles and databases from POSTGRES_USER and
 * POSTGRES_DB, and simple queries `SELECT <integer>` and `SELECT version()`. Anything else is
 * answered with an error that says what is simulated, never silence.
 */
import type { ContainerState } from '../process.js';
import type { ServerFactory } from './connection.js';

const SSL_REQUEST = 80877103;
const GSS_REQUEST = 80877104;
const PROTOCOL_3 = 196608;
const SERVER_VERSION = '17.4 (Debian 17.4-1.pgdg120+2)';

/** message frames one backend message: its type byte, then the length and the body. */
function message(type: string, body: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(5);
  header.write(type, 0, 'latin1');
  header.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

const cstring = (text: string) => Buffer.from(`${text}\0`, 'utf8');
const int16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const int32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
};

/** errorResponse is an ErrorResponse with severity, SQLSTATE code and message. */
function errorResponse(severity: 'ERROR' | 'FATAL', code: string, text: string): Buffer {
  const fields = [`S${severity}`, `V${severity}`, `C${code}`, `M${text}`].map(cstring);
  return message('E', Buffer.concat([...fields, Buffer.from([0])]));
}

/** rowResult answers a one-column, one-row SELECT. */
function rowResult(column: string, value: string, type: 'int4' | 'text'): Buffer {
  const [oid, size] = type === 'int4' ? [23, 4] : [25, -1];
  const field = Buffer.concat([cstring(column), int32(0), int16(0), int32(oid), int16(size), int32(-1), int16(0)]);
  const cell = Buffer.from(value, 'utf8');
  return Buffer.concat([
    message('T', Buffer.concat([int16(1), field])),
    message('D', Buffer.concat([int16(1), int32(cell.length), cell])),
    message('C', cstring('SELECT 1')),
  ]);
}

const readyForQuery = () => message('Z', Buffer.from('I', 'latin1'));

/** startupParameters reads a StartupMessage's key/value pairs. */
function startupParameters(body: Buffer): Map<string, string> {
  const parts = body.toString('utf8').split('\0');
  const parameters = new Map<string, string>();
  for (let i = 0; i + 1 < parts.length && parts[i] !== ''; i += 2) parameters.set(parts[i]!, parts[i + 1]!);
  return parameters;
}

export function postgresServer(container: ContainerState): ServerFactory {
  const env = new Map(container.env);
  const role = env.get('POSTGRES_USER') || 'postgres';
  const databases = new Set([env.get('POSTGRES_DB') || role, 'postgres', 'template1']);
  return (reply, close) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    let closed = false;
    const fail = (code: string, text: string) => {
      reply(errorResponse('FATAL', code, text));
      closed = true;
      close();
    };
    const startup = (code: number, body: Buffer) => {
      if (code === SSL_REQUEST || code === GSS_REQUEST) return reply('N'); // no TLS, no GSSAPI: the client goes on in clear
      if (code !== PROTOCOL_3) return fail('0A000', `unsupported frontend protocol ${code >> 16}.${code & 0xffff}: server supports 3.0 to 3.0`);
      const parameters = startupParameters(body);
      const user = parameters.get('user') ?? '';
      const database = parameters.get('database') || user;
      if (user !== role) return fail('28000', `role "${user}" does not exist`);
      if (!databases.has(database)) return fail('3D000', `database "${database}" does not exist`);
      started = true;
      const status = (name: string, value: string) => message('S', Buffer.concat([cstring(name), cstring(value)]));
      reply(
        Buffer.concat([
          message('R', int32(0)),
          status('server_version', SERVER_VERSION),
          status('server_encoding', 'UTF8'),
          status('client_encoding', parameters.get('client_encoding') ?? 'UTF8'),
          status('DateStyle', 'ISO, MDY'),
          status('integer_datetimes', 'on'),
          status('standard_conforming_strings', 'on'),
          status('TimeZone', 'Etc/UTC'),
          status('application_name', parameters.get('application_name') ?? ''),
          message('K', Buffer.concat([int32(container.nextPid), int32(0x6b756265)])),
          readyForQuery(),
        ]),
      );
    };
    const query = (text: string) => {
      const sql = text.replace(/\0$/, '').trim().replace(/;$/, '').trim();
      const number = /^select\s+(-?\d+)$/i.exec(sql);
      if (number) return reply(Buffer.concat([rowResult('?column?', String(Number(number[1])), 'int4'), readyForQuery()]));
      if (/^select\s+version\(\)$/i.test(sql)) {
        const version = `PostgreSQL ${SERVER_VERSION} on x86_64-pc-linux-gnu, compiled by gcc (Debian 12.2.0-14) 12.2.0, 64-bit`;
        return reply(Buffer.concat([rowResult('version', version, 'text'), readyForQuery()]));
      }
      const why = 'kubesim simulates postgres: it answers SELECT <integer> and SELECT version() only';
      reply(Buffer.concat([errorResponse('ERROR', '0A000', why), readyForQuery()]));
    };
    return {
      receive(data) {
        buffer = Buffer.concat([buffer, data]);
        for (;;) {
          if (!started) {
            if (buffer.length < 8) return;
            const length = buffer.readInt32BE(0);
            if (length < 8 || length > 10_000) return fail('08P01', 'invalid length of startup packet');
            if (buffer.length < length) return;
            const code = buffer.readInt32BE(4);
            const body = buffer.subarray(8, length);
            buffer = buffer.subarray(length);
            startup(code, body);
            if (closed) return;
            continue;
          }
          if (buffer.length < 5) return;
          const type = String.fromCharCode(buffer[0]!);
          const length = buffer.readInt32BE(1);
          if (length < 4) return fail('08P01', 'invalid message length');
          if (buffer.length < length + 1) return;
          const body = buffer.subarray(5, length + 1);
          buffer = buffer.subarray(length + 1);
          if (type === 'X') return close();
          if (type === 'Q') query(body.toString('utf8'));
          else reply(Buffer.concat([errorResponse('ERROR', '0A000', `kubesim simulates postgres: message type "${type}" is not supported`), readyForQuery()]));
        }
      },
    };
  };
}
