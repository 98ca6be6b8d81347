/**
 * waitForReadyNodes watches the API server's nodes until `count` of them report Ready,
 * printing a progress line when the count changes (and every few seconds while it does not),
 * so `kubesim up` prints its banner only once `kubectl get nodes` shows them Ready. A watch,
 * not polling: with 1,000 nodes a list every few milliseconds would slow the start it waits for.
 */
import type { ClientTls } from '../../controllers/runtime/client/http-transport.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';

const QUIET_PROGRESS_MS = 5_000;
const RETRY_MS = 100;

interface NodeEvent {
  type: string;
  object: { metadata?: { name?: string }; status?: { conditions?: Array<{ type: string; status: string }> } };
}

export async function waitForReadyNodes(url: string, count: number, signal: AbortSignal, say: (line: string) => void, tls?: ClientTls): Promise<void> {
  const ready = new Set<string>();
  let lastSaid = -1;
  let lastSaidAt = Date.now();
  const progress = () => {
    if (ready.size === lastSaid && Date.now() - lastSaidAt < QUIET_PROGRESS_MS) return;
    say(`waiting for ${count} simulated node(s) to be Ready: ${ready.size}/${count}`);
    lastSaid = ready.size;
    lastSaidAt = Date.now();
  };
  const ticker = setInterval(progress, QUIET_PROGRESS_MS);
  try {
    while (!signal.aborted && ready.size < count) {
      ready.clear();
      await watchNodes(url, signal, tls, (event) => {
        const name = event.object.metadata?.name ?? '';
        const isReady = event.type !== 'DELETED' && !!event.object.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
        if (isReady) ready.add(name);
        else ready.delete(name);
        if (ready.size >= count) return true;
        progress();
        return false;
      });
      if (ready.size < count && !signal.aborted) await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  } finally {
    clearInterval(ticker);
  }
}

/** watchNodes streams node events to `onEvent` until it returns true, the stream ends or fails. */
async function watchNodes(url: string, signal: AbortSignal, tls: ClientTls | undefined, onEvent: (event: NodeEvent) => boolean): Promise<void> {
  const done = new AbortController();
  const stop = AbortSignal.any([signal, done.signal]);
  try {
    const response = await fetchWithTls(`${url}/api/v1/nodes?watch=true`, { signal: stop, tls, headers: { 'User-Agent': 'kubesim-up/0.1' } });
    if (!response.ok || !response.body) return;
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line && onEvent(JSON.parse(line) as NodeEvent)) return;
        newline = buffered.indexOf('\n');
      }
    }
  } catch {
    // Refused, reset or aborted: the caller retries (or stops on its signal).
  } finally {
    done.abort();
  }
}
