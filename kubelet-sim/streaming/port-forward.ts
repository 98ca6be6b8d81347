/**
 * port-forward over WebSocket channels (the kubelet's portforward websocket protocol): for
 * the i-th requested port, channel 2i carries data and 2i+1 errors; the first message the
 * server sends on each is the port number (two bytes, little endian), so the client knows the
 * streams are ready. Each port gets one connection into the pod; when nothing listens there,
 * its error channel carries the runtime's refusal, worded as containerd words it.
 */
import type { UserlandConnection } from '../userland/contract.js';
import type { ChannelSocket } from './channel-socket.js';

/** parsePorts reads the ports a port-forward asked for (`port` or `ports`, repeated or comma-separated). */
export function parsePorts(query: URLSearchParams): number[] | string {
  const values = [...query.getAll('port'), ...query.getAll('ports')].flatMap((value) => value.split(','));
  if (values.length === 0) return 'query parameter "port" is required';
  const ports = values.map((value) => Number(value.trim()));
  const bad = values.find((_, i) => !Number.isInteger(ports[i]) || ports[i]! < 1 || ports[i]! > 65535);
  return bad === undefined ? ports : `unable to parse "${bad}" as a port: port must be between 1 and 65535`;
}

/** The target of a port-forward: one connection per port, or undefined when nothing listens. */
export interface PortForwardTarget {
  connect(port: number): UserlandConnection | undefined;
  /** The pod sandbox's id and uid, which the refusal names. */
  sandboxId: string;
}

/** runPortForward serves the session until the socket closes or every connection ended. */
export function runPortForward(socket: ChannelSocket, target: PortForwardTarget, ports: readonly number[]): void {
  const connections = new Map<number, UserlandConnection>();
  let open = ports.length;
  const ended = () => {
    open -= 1;
    if (open === 0) socket.ws.close(1000);
  };
  ports.forEach((port, index) => {
    const prefix = Buffer.of(port & 0xff, port >> 8);
    socket.send(2 * index, prefix);
    socket.send(2 * index + 1, prefix);
    const connection = target.connect(port);
    if (!connection) {
      socket.send(2 * index + 1, portForwardRefusal(port, target.sandboxId));
      ended();
      return;
    }
    connections.set(2 * index, connection);
    connection.onData((data) => socket.send(2 * index, data));
    connection.onEnd(ended);
  });
  socket.onMessage(({ channel, data }) => connections.get(channel)?.write(data));
  socket.ws.on('close', () => {
    for (const connection of connections.values()) connection.end();
  });
}

/** portForwardRefusal is the error a kubelet (containerd) reports for a port nothing listens on. */
export function portForwardRefusal(port: number, sandboxId: string): string {
  return (
    `error forwarding port ${port} to pod ${sandboxId}, uid : failed to execute portforward in network namespace "/var/run/netns/cni-${sandboxId.slice(0, 8)}": ` +
    `failed to connect to localhost:${port} inside namespace "${sandboxId}", IPv4: dial tcp4 127.0.0.1:${port}: connect: connection refused ` +
    `IPv6 dial tcp6 [::1]:${port}: connect: connection refused `
  );
}
