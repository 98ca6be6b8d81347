/**
 * A connection to a port in a pod, for pods/proxy and services/proxy. kubesim's pods have no
 * network the API server could dial, so it opens the connection the way `kubectl
 * port-forward` does: a WebSocket to the kubelet's /portForward/{namespace}/{pod}?port=N with
 * the `v4.channel.k8s.io` protocol (channel 0 data, channel 1 errors; each channel's first
 * message is the port). The kubelet's port-forward is thus the one way into a pod's servers.
 *
 * The connection is a Duplex, so node's HTTP client can speak HTTP over it. A refusal on the
 * error channel (nothing listens on the port) fails it with the error Go's dialer gives for a
 * closed port: `dial tcp 10.244.0.5:81: connect: connection refused`.
 */
import { Duplex } from 'node:stream';
import WebSocket from 'ws';

const DATA = 0;
const ERROR = 1;

export interface PodPort {
  /** host:port of the kubelet running the pod. */
  kubelet: string;
  namespace: string;
  pod: string;
  port: number;
  /** The pod's ip:port, as dial errors name it. */
  address: string;
}

/** dialPodPort opens a connection to a pod's port through its kubelet. */
export function dialPodPort(target: PodPort): Duplex {
  const path = `/portForward/${encodeURIComponent(target.namespace)}/${encodeURIComponent(target.pod)}?port=${target.port}`;
  const ws = new WebSocket(`ws://${target.kubelet}${path}`, ['v4.channel.k8s.io'], { perMessageDeflate: false });
  const refused = () => new Error(`dial tcp ${target.address}: connect: connection refused`);
  const seenPrefix = [false, false];
  const connection = new Duplex({
    write(chunk: Buffer, _encoding, callback) {
      const send = () => ws.send(Buffer.concat([Buffer.of(DATA), chunk]), callback);
      if (ws.readyState === WebSocket.OPEN) send();
      else ws.once('open', send);
    },
    final(callback) {
      callback();
    },
    read() {},
    destroy(err, callback) {
      ws.terminate();
      callback(err);
    },
  });
  ws.on('message', (message: Buffer) => {
    const channel = message[0];
    if (channel !== DATA && channel !== ERROR) return;
    if (!seenPrefix[channel]) {
      seenPrefix[channel] = true;
      return;
    }
    if (channel === DATA) connection.push(message.subarray(1));
    else if (message.length > 1) connection.destroy(refused());
  });
  ws.on('close', () => connection.push(null));
  // The kubelet no longer runs the pod (or is gone): as seen from the API server, nothing answers.
  ws.on('unexpected-response', () => connection.destroy(refused()));
  ws.on('error', (err) => connection.destroy(ws.readyState === WebSocket.OPEN ? err : refused()));
  return connection;
}
