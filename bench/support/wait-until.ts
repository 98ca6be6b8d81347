/** waitUntil polls `check` every 100 ms until it is true, printing progress every 5 s, and
 * throws after `timeoutMs` naming what it waited for. Benchmarks only: tests use eventually(). */
export async function waitUntil(label: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const start = performance.now();
  let reported = start;
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${label}`);
    if (performance.now() - reported > 5000) {
      console.log(`  ...${label} (${((performance.now() - start) / 1000).toFixed(0)} s)`);
      reported = performance.now();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
