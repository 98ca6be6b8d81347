/** The messages `kubesim up` and its API server process exchange (supervised-apiserver.ts
 * has the picture); a module of its own so that `up` loads none of the server. */
export const APISERVER_IPC = {
  listening: 'listening',
  clock: 'clock',
  components: 'components',
  component: 'component',
  shutdown: 'shutdown',
  expected: 'expected',
  launched: 'launched',
  /** A line for the terminal of `kubesim up` (settled, chaos steps). */
  say: 'say',
} as const;

/** What `up` tells the API server about the components (the `expected` notice). */
export interface ExpectedComponents {
  /** Every component name (processes and hosted loops), for routes and chaos. */
  names: string[];
  /** The names the running processes report their activity under. */
  reporting: string[];
  /** Every planned component process has been started (the just-started state can be captured once they settle). */
  started: boolean;
}
