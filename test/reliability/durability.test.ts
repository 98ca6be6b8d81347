/**
 * Nothing acknowledged is ever lost: `kubesim apiserver` on a data dir is killed with SIGKILL
 * several times while writers create and update objects, and restarted on the same dir and
 * port. Afterwards every acknowledged write is there (an object holds its last acknowledged
 * value or a later one), and no two acknowledged writes share a resourceVersion nor does a
 * writer ever see one go back. (docs/reliability.md gives the figures of a longer run.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports.js';
import { type KubesimProcess, spawnKubesim, stopAllKubesim } from '../support/processes.js';

// CI's size; DURABILITY_KILLS and DURABILITY_WRITES scale it up for the long run in docs/reliability.md.
const KILLS = Number(process.env['DURABILITY_KILLS'] ?? 3);
const WRITERS = 4;
const WRITES_BETWEEN_KILLS = Number(process.env['DURABILITY_WRITES'] ?? 120);
const CM = '/api/v1/namespaces/default/configmaps';

/** Acknowledged writes: the last counter each object was acknowledged at, and every RV. */
interface Ledger {
  lastAcked: Map<string, number>;
  revisions: number[];
  perWriter: number[][];
}

/** writeOnce creates `name` at counter 0 or updates it to `counter`; resolves with the RV the
 * server acknowledged, or undefined when no acknowledgement came (server down, conflict). */
async function writeOnce(url: string, name: string, counter: number): Promise<number | undefined> {
  const body = JSON.stringify({ metadata: { name }, data: { counter: String(counter) } });
  try {
    const response =
      counter === 0
        ? await fetch(`${url}${CM}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body })
        : await fetch(`${url}${CM}/${name}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
    if (response.status !== 200 && response.status !== 201) return undefined;
    return Number(((await response.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
  } catch {
    return undefined;
  }
}

describe('durability under kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-durability-'));
  afterAll(async () => {
    await stopAllKubesim();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every acknowledged write over ${KILLS} kills of the API server`, { timeout: 120_000 }, async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const start = async (): Promise<KubesimProcess> => {
      const server = spawnKubesim(['apiserver', '--insecure-http', '--port', String(port), '--data-dir', join(dir, 'data')]);
      await server.waitForOutput(/listening on/);
      return server;
    };
    const ledger: Ledger = { lastAcked: new Map(), revisions: [], perWriter: Array.from({ length: WRITERS }, () => []) };
    let acked = 0;
    let server = await start();
    let running = true;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let object = 0; running; object++) {
        const name = `w${w}-${object}`;
        for (let counter = 0; counter < 5 && running; ) {
          const rv = await writeOnce(url, name, counter);
          if (rv === undefined) {
            // Unacknowledged: it may or may not have happened. Find out what the object holds.
            const current = await fetch(`${url}${CM}/${name}`)
              .then((r) => (r.ok ? r.json() : undefined))
              .catch(() => 'down');
            if (current === 'down') await new Promise((r) => setTimeout(r, 20));
            else counter = current ? Number((current as { data: { counter: string } }).data.counter) + 1 : 0;
            continue;
          }
          ledger.lastAcked.set(name, counter);
          ledger.revisions.push(rv);
          ledger.perWriter[w]!.push(rv);
          acked++;
          counter++;
        }
      }
    });
    for (let kill = 0; kill < KILLS; kill++) {
      const target = acked + WRITES_BETWEEN_KILLS;
      while (acked < target) await new Promise((r) => setTimeout(r, 10));
      server.child.kill('SIGKILL');
      await server.exited;
      server = await start();
    }
    const target = acked + WRITES_BETWEEN_KILLS;
    while (acked < target) await new Promise((r) => setTimeout(r, 10));
    running = false;
    await Promise.all(writers);

    const stored = new Map<string, number>();
    const list = (await (await fetch(`${url}${CM}`)).json()) as { items: Array<{ metadata: { name: string }; data: { counter: string } }> };
    for (const item of list.items) stored.set(item.metadata.name, Number(item.data.counter));
    const lost = [...ledger.lastAcked].filter(([name, counter]) => !((stored.get(name) ?? -1) >= counter));
    expect(lost, 'acknowledged writes missing after the kills').toEqual([]);
    expect(new Set(ledger.revisions).size, 'a resourceVersion acknowledged twice').toBe(ledger.revisions.length);
    for (const revisions of ledger.perWriter) expect(revisions, 'a writer saw resourceVersions go back').toEqual([...revisions].sort((a, b) => a - b));
    expect(acked).toBeGreaterThanOrEqual((KILLS + 1) * WRITES_BETWEEN_KILLS);
    console.log(`durability: ${KILLS} kills, ${acked} acknowledged writes checked, ${ledger.lastAcked.size} objects, lost 0`);
    await server.stop();
  });
});
