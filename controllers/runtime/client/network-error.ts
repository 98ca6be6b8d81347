/** NetworkError: a request that never got an HTTP answer (refused, reset, DNS, TLS, ...). Its
 * own module so that http-transport.ts and server-pool.ts can both use it without importing
 * each other. */

/** NetworkError means the request never got an HTTP answer (refused, reset, DNS, ...). It
 * names the method and URL; the underlying error is its `cause`. */
export class NetworkError extends Error {
  constructor(
    message: string,
    readonly url: string,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'NetworkError';
  }
}

/** isNetworkError reports whether `err` is a NetworkError. */
export const isNetworkError = (err: unknown): err is NetworkError => err instanceof NetworkError;
