/**
 * pods/log, streamed: kube-apiserver does not serve logs itself but proxies the request to
 * the kubelet running the pod (logLocation finds it) and copies the kubelet's answer back —
 * byte for byte and as it arrives, so `kubectl logs -f` follows. A kubelet error (a Status
 * body) is passed on as that Status; an unreachable kubelet is a 500 naming the URL.
 */
import { request as httpRequest } from 'node:http';
import { ApiError } from '../api/api-error.js';
import { logLocation } from './pod-handlers.js';
/** serveLog answers GET pods/{name}/log on `res`. It rejects with an ApiError (before any
 * byte is written) when the request is invalid or the kubelet fails; it resolves when the
 * kubelet ends the stream or the client goes away. */
export async function serveLog(ctx, request, res) {
    const url = logLocation(ctx, request);
    const upstream = await connect(url, res);
    if (!upstream)
        return;
    if (upstream.statusCode !== 200)
        throw kubeletError(upstream.statusCode ?? 500, await readBody(upstream));
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-cache' });
    await new Promise((resolve) => {
        upstream.on('data', (chunk) => res.write(chunk));
        upstream.on('end', resolve);
        upstream.on('error', resolve);
        upstream.on('close', resolve);
    });
    if (!res.writableEnded)
        res.end();
}
/** connect sends the request to the kubelet; resolves undefined when the client left first. */
function connect(url, res) {
    return new Promise((resolve, reject) => {
        const upstream = httpRequest(url, { method: 'GET', headers: { Accept: 'text/plain, */*' } }, resolve);
        upstream.on('error', (err) => {
            if (res.destroyed)
                resolve(undefined);
            else
                reject(new ApiError('InternalError', 500, `Get "${url.href}": ${err.message}: the kubelet serving this node is unreachable`));
        });
        // The client (kubectl logs -f) went away: stop following upstream too.
        res.on('close', () => upstream.destroy());
        upstream.end();
    });
}
function readBody(response) {
    return new Promise((resolve) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
}
/** kubeletError turns a kubelet error answer into the ApiError the client sees. */
function kubeletError(code, body) {
    try {
        const status = JSON.parse(body);
        if (status.kind === 'Status')
            return ApiError.fromStatus(status, code);
    }
    catch {
        // Not a Status: the kubelet's text is the message.
    }
    return new ApiError(code >= 500 ? 'InternalError' : 'BadRequest', code, body.trim() || `kubelet answered HTTP ${code}`);
}
//# sourceMappingURL=log-proxy.js.map