/**
 * The CLI's side of the history API (docs/history.md): read pages, or follow the stream, of
 * GET /apis/kubesim.io/v1alpha1/history on the server named in a kubeconfig — found the way
 * component-control.ts finds it.
 */
import { resolve } from 'node:path';
import type { HistoryItem, HistoryList } from '../../apiserver/api/kubesim/history.js';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { fetchWithTls } from '../../controllers/runtime/client/tls-fetch.js';
import { call } from './component-control.js';

/** HISTORY_PATH is the history API's path on the server. */
export const HISTORY_PATH = '/apis/kubesim.io/v1alpha1/history';

/** HistoryParams are the API's query parameters; undefined ones are left out. */
export type HistoryParams = Record<string, string | number | boolean | undefined>;

function queryOf(params: HistoryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, String(value));
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** readHistory reads every page of matching history, oldest first, stopping after
 * `maxItems`. Rejects with the server's message (a 410 when fromRevision was compacted) or
 * says the cluster cannot be reached. */
export async function readHistory(kubeconfig: string, params: HistoryParams, maxItems = 50_000): Promise<HistoryItem[]> {
  const items: HistoryItem[] = [];
  let from = params['fromRevision'];
  for (;;) {
    const page = (await call(kubeconfig, 'GET', `${HISTORY_PATH}${queryOf({ ...params, fromRevision: from, limit: 1000 })}`)) as HistoryList;
    items.push(...page.items);
    if (!page.metadata.continue || items.length >= maxItems) return items.slice(0, maxItems);
    from = page.metadata.continue;
  }
}

/** followHistory yields every later matching change as the server streams it, until `signal`
 * aborts (then it returns) or the server ends the stream. `onOpen` runs once the server
 * accepted the stream: every change from then on is delivered. */
export async function* followHistory(kubeconfig: string, params: HistoryParams, signal: AbortSignal, onOpen?: () => void): AsyncGenerator<HistoryItem> {
  const { server, token, tls } = loadKubeconfig(resolve(kubeconfig));
  let response: Response;
  try {
    response = await fetchWithTls(`${server}${HISTORY_PATH}${queryOf({ ...params, watch: true })}`, { token, tls, signal });
  } catch (err) {
    if (signal.aborted) return;
    throw new Error(`cannot reach the cluster at ${server}: is \`kubesim up\` running? (${(err as Error).message})`);
  }
  if (!response.ok || !response.body) {
    const status = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(status.message ?? `HTTP ${response.status}`);
  }
  onOpen?.();
  try {
    yield* jsonLines(response.body);
  } catch (err) {
    if (!signal.aborted) throw err;
  }
}

/** jsonLines parses a stream of newline-delimited JSON. */
async function* jsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<HistoryItem> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line !== '') yield JSON.parse(line) as HistoryItem;
      newline = buffered.indexOf('\n');
    }
  }
}
