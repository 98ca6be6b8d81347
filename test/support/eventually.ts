/** eventually retries `fn` until it stops throwing (or returns a truthy value when it
 * returns a boolean) or `timeoutMs` passes; then it rethrows the last failure. Use it to
 * wait for a condition instead of sleeping a fixed time. */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 20 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== false) return value;
      lastError = new Error('condition returned false');
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) throw lastError;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
