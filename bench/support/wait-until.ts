/** waitUntil polls `check` every 100 ms until it is true, printing progress (`label`, or its
 * current text when a function) every 5 s, and
 * throws after `timeoutMs` naming what it waited for. Benchmarks only: tests use eventually(). */
export async function waitUntil(label: string | (() => string), check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const describe = typeof label === 'string' ? () => label : label;
  const start = performance.now();
  let reported = start;
  while (!(await check())) {
    if (performance.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${describe()}`);
    if (performance.now() - reported > 5000) {
      console.log(`  ...${describe()} (${((performance.now() - start) / 1000).toFixed(0)} s)`);
      reported = performance.now();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
