/**
 * Which simulated server a container runs, on which port: the image's server when the container
 * runs the image's own command (nginx and httpd on 80, redis on 6379, postgres on 5432, http-echo on its -listen
 * port, 5678 by default). A container whose command is something else (`sleep 3600`) listens
 * nowhere.
 */
import type { PodContainer } from '../container-build.js';
import type { ImageProfile } from '../images.js';
import type { ContainerState } from '../process.js';
import type { ServerFactory } from './connection.js';
import { echoText, staticFiles } from './http.js';
import { postgresServer } from './postgres.js';
import { redisServer } from './redis.js';

export interface Listener {
  readonly port: number;
  /** The server, given the built container and a store that lives as long as the container. */
  readonly serve: (container: ContainerState, store: Map<string, string>) => ServerFactory;
}

const SERVER_BINARIES = new Set([
  'nginx',
  'httpd',
  'httpd-foreground',
  'redis-server',
  'postgres',
  'http-echo',
  'docker-entrypoint.sh',
  '/docker-entrypoint.sh',
]);

/** argValue: `-name=value` or `-name value` (one or two dashes) among args. */
function argValue(args: readonly string[], name: string): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const match = new RegExp(`^--?${name}(?:=(.*))?$`, 's').exec(args[i]!);
    if (match) return match[1] ?? args[i + 1];
  }
  return undefined;
}

export function listenerOf(profile: ImageProfile, spec: PodContainer): Listener | undefined {
  const command = spec.command?.[0];
  if (command && !SERVER_BINARIES.has(command.split('/').at(-1)!) && !SERVER_BINARIES.has(command)) return undefined;
  const args = [...(spec.command?.slice(1) ?? []), ...(spec.args ?? [])];
  switch (profile.server) {
    case 'nginx':
      return { port: 80, serve: (container) => staticFiles('nginx/1.27.5', container, '/usr/share/nginx/html') };
    case 'httpd':
      return { port: 80, serve: (container) => staticFiles('Apache/2.4.63 (Unix)', container, '/usr/local/apache2/htdocs') };
    case 'redis':
      return { port: 6379, serve: (_container, store) => redisServer(store) };
    case 'postgres':
      return { port: 5432, serve: (container) => postgresServer(container) };
    case 'http-echo': {
      const port = Number((argValue(args, 'listen') ?? ':5678').split(':').at(-1));
      return { port, serve: (container) => echoText(container, argValue(args, 'text') ?? 'hello-world') };
    }
    default:
      return undefined;
  }
}
