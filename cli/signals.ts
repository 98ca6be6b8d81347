/**
 * untilSignal returns an AbortController that aborts on SIGINT or SIGTERM — or, in a process
 * `kubesim up` supervises, when the supervisor goes away: the supervisor opens an IPC channel
 * to each child, and the channel closes when it dies, even by kill -9. Without that, a child
 * outlived its supervisor and ran beside the next `kubesim up`'s loops. The one place a kubesim
 * process turns signals into cancellation.
 */
export function untilSignal(): AbortController {
  const controller = new AbortController();
  const abort = (reason: string) => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('disconnect', onOrphaned);
    controller.abort(new Error(reason));
  };
  const onSignal = (signal: NodeJS.Signals) => abort(`received ${signal}`);
  const onOrphaned = () => abort('the supervising process went away');
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (process.channel) {
    process.on('disconnect', onOrphaned);
    // The channel only watches the parent: it must not keep this process alive by itself.
    process.channel.unref();
  } else if (process.connected === false) {
    // Started with a channel that closed before this ran: the supervisor died while this
    // process was starting, and 'disconnect' has already been emitted to nobody.
    onOrphaned();
  }
  return controller;
}
