/**
 * waitForDefaultServiceAccount waits until the serviceaccount loop has made the `default`
 * namespace's `default` ServiceAccount, so that a pod created the moment `kubesim up` prints
 * its banner is not refused for want of it (the ServiceAccount admission plugin requires the
 * account; kube-apiserver waits for a missing `default` one only a second or two). One small
 * GET every few milliseconds, for the fraction of a second the loop takes to start.
 */
import type { ClientTls } from '../../controllers/runtime/client/http-transport.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';

const POLL_MS = 25;

export async function waitForDefaultServiceAccount(url: string, signal: AbortSignal, tls?: ClientTls): Promise<void> {
  const path = `${url}/api/v1/namespaces/default/serviceaccounts/default`;
  while (!signal.aborted) {
    try {
      const response = await fetchWithTls(path, { signal, tls, headers: { 'User-Agent': 'kubesim-up/0.1' } });
      await response.body?.cancel();
      if (response.ok) return;
    } catch {
      // The API server is restarting or we are stopping: try again, or end with the signal.
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
