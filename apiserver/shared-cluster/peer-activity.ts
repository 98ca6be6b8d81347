/**
 * What keeps the other API servers busy, for settle: each live peer (from the Leases) is asked
 * for its own view (GET /apis/kubesim.io/v1alpha1/activity, whose `busy` lists its requests in
 * flight, its undelivered watch events and the loops reporting to it). A peer that does not
 * answer counts as busy, so settle waits for it or for its Lease to lapse. The servers call
 * each other as system:apiserver in system:masters, with a certificate of the cluster CA they
 * share (over HTTPS), as kube-apiserver's peer proxy calls its peers.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KeyPair } from '../api/pki/issue.js';
import type { ApiAddress, ApiServerDirectory } from '../controlplane/index.js';
import { KUBESIM_API } from '../kubesim/cluster-routes.js';
import { formatAddress } from './api-server-leases.js';

const PEER_TIMEOUT_MS = 2_000;

export interface PeerActivityOptions {
  directory: ApiServerDirectory;
  self: ApiAddress;
  scheme: 'http' | 'https';
  /** The client certificate and the CA to trust, over HTTPS. */
  credentials?: () => Promise<{ pair: KeyPair; caPem: string }>;
}

/** peersBusy returns what keeps the live peers busy (each entry names the peer). */
export function peerActivity(options: PeerActivityOptions): () => Promise<string[]> {
  return async () => {
    const peers = options.directory.live().filter((peer) => peer.ip !== options.self.ip || peer.port !== options.self.port);
    if (peers.length === 0) return [];
    const tls = options.scheme === 'https' ? await options.credentials?.() : undefined;
    const answers = await Promise.all(
      peers.map(async (peer) => {
        const name = `apiserver ${formatAddress(peer)}`;
        try {
          const body = (await getJson(`${options.scheme}://${formatAddress(peer)}${KUBESIM_API}/activity`, tls)) as { busy?: string[] };
          return (body.busy ?? []).map((part) => `${name}: ${part}`);
        } catch (err) {
          return [`${name} (not answering: ${(err as Error).message})`];
        }
      }),
    );
    return answers.flat();
  };
}

function getJson(url: string, tls: { pair: KeyPair; caPem: string } | undefined): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const options = { timeout: PEER_TIMEOUT_MS, headers: { Accept: 'application/json' } };
    const onResponse = (response: import('node:http').IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) return reject(new Error(`HTTP ${response.statusCode}`));
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          reject(err);
        }
      });
      response.on('error', reject);
    };
    const req = tls
      ? httpsRequest(url, { ...options, cert: tls.pair.certPem, key: tls.pair.keyPem, ca: tls.caPem }, onResponse)
      : httpRequest(url, options, onResponse);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.end();
  });
}
