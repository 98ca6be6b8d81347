/** untilSignal returns an AbortController that aborts on SIGINT or SIGTERM, the one place a
 * kubesim process turns signals into cancellation (STYLE §3.3 Runnable). */
export function untilSignal() {
    const controller = new AbortController();
    const abort = (signal) => {
        process.off('SIGINT', abort);
        process.off('SIGTERM', abort);
        controller.abort(new Error(`received ${signal}`));
    };
    process.on('SIGINT', abort);
    process.on('SIGTERM', abort);
    return controller;
}
//# sourceMappingURL=signals.js.map