/**
 * kube-apiserver's --token-auth-file: a CSV file of `token,user,uid,"group1,group2"` lines.
 * Requests carrying `Authorization: Bearer <token>` for a listed token are that user.
 */
import { readFileSync } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import type { UserInfo } from '../authz/user.js';
import type { Authenticator } from './authenticator.js';

/** bearerToken reads the token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** parseTokenFile reads the CSV text of a token file; throws naming the line that is wrong. */
export function parseTokenFile(text: string, source: string): Map<string, UserInfo> {
  const users = new Map<string, UserInfo>();
  text.split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return;
    const fields = csvFields(line);
    const [token, username, uid, groups] = fields;
    if (fields.length < 3 || !token || !username) {
      throw new Error(`${source}:${index + 1}: a line needs at least token,user,uid (got ${fields.length} field(s))`);
    }
    const groupList = groups
      ? groups
          .split(',')
          .map((g) => g.trim())
          .filter((g) => g !== '')
      : [];
    users.set(token, { username, uid: uid ?? '', groups: groupList });
  });
  return users;
}

/** csvFields splits one CSV line, honouring double-quoted fields ("a,b" and "" escapes). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field.trim());
      field = '';
    } else field += char;
  }
  fields.push(field.trim());
  return fields;
}

/**
 * tokenFileUsers looks tokens up in a token file. Like kube-apiserver's, every listed user is
 * also in system:authenticated.
 */
export function tokenFileUsers(path: string): (token: string) => UserInfo | undefined {
  const users = parseTokenFile(readFileSync(path, 'utf8'), path);
  return (token) => {
    const user = users.get(token);
    if (!user) return undefined;
    return user.groups.includes('system:authenticated') ? user : { ...user, groups: [...user.groups, 'system:authenticated'] };
  };
}

/**
 * tokenFileAuthenticator authenticates the tokens of a token file. A bearer token not in the
 * file is left to the next authenticator. (startApiServer chains the file's tokens with the
 * service-account tokens instead: see token-authenticators.ts.)
 */
export function tokenFileAuthenticator(path: string): Authenticator {
  const lookUp = tokenFileUsers(path);
  return (request) => {
    const token = bearerToken(request);
    return token === undefined ? undefined : lookUp(token);
  };
}
