/** Opening a TCP connection from a container, as a client program sees it: a name resolved,
 * then a connect that succeeds, is refused, or times out (the kernel gives up on an
 * unanswered SYN after about 127 s; a client's own timeout may end it sooner). */
import type { UserlandConnection } from '../contract.js';
import type { ContainerState } from '../process.js';
import { resolveHost, waitFor } from './resolver.js';

/** How long Linux retries an unanswered SYN (tcp_syn_retries 6: 1+2+4+…+64 s). */
export const KERNEL_CONNECT_TIMEOUT_MS = 127_000;

export type TcpOutcome =
  | { readonly kind: 'connected'; readonly connection: UserlandConnection; readonly ip: string }
  | { readonly kind: 'bad-address' }
  | { readonly kind: 'resolve-timeout' }
  | { readonly kind: 'refused'; readonly ip: string }
  /** `byClient`: the program's own timeout ended the wait (else the kernel's did). */
  | { readonly kind: 'timeout'; readonly ip: string; readonly byClient: boolean };

export interface TcpOptions {
  /** The client's limit on the whole connect, resolving included (ms); none when undefined. */
  readonly timeoutMs?: number;
  readonly signal: AbortSignal;
  /** Hears the address before the connect starts (wget's `Connecting to`, curl's `Trying`). */
  readonly onResolved?: (ip: string) => void;
}

export async function openTcp(container: ContainerState, host: string, port: number, options: TcpOptions): Promise<TcpOutcome> {
  const started = container.clock.now();
  const resolved = await resolveHost(container, host, options.signal, options.timeoutMs);
  if (resolved.kind === 'not-found') return { kind: 'bad-address' };
  if (resolved.kind === 'timeout') return { kind: 'resolve-timeout' };
  options.onResolved?.(resolved.ip);
  const outcome = await (container.network?.connect(resolved.ip, port) ?? Promise.resolve({ kind: 'dropped' as const }));
  if (outcome.kind === 'connected') return { kind: 'connected', connection: outcome.connection, ip: resolved.ip };
  if (outcome.kind === 'refused') return { kind: 'refused', ip: resolved.ip };
  const left = options.timeoutMs === undefined ? KERNEL_CONNECT_TIMEOUT_MS : Math.max(0, options.timeoutMs - (container.clock.now() - started));
  await waitFor(container, Math.min(left, KERNEL_CONNECT_TIMEOUT_MS), options.signal);
  return { kind: 'timeout', ip: resolved.ip, byClient: left < KERNEL_CONNECT_TIMEOUT_MS };
}
