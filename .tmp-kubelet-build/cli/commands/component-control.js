/** `kubesim stop|start <component>` and `kubesim status`: talk to the supervisor of a running
 * `kubesim up` through the server named in the kubeconfig. */
import { resolve } from 'node:path';
import { loadKubeconfig } from '../../controllers/runtime/client/kubeconfig.js';
import { CONTROL_PREFIX, SHUTDOWN_PATH } from '../control-routes.js';
import { parseFlags, UsageError } from '../args.js';
const flags = {
    kubeconfig: { type: 'string', description: 'kubeconfig of the cluster', default: process.env['KUBECONFIG'] ?? '.kubesim/kubeconfig' },
};
async function call(kubeconfig, method, path) {
    const { server } = loadKubeconfig(resolve(kubeconfig));
    let response;
    try {
        response = await fetch(`${server}${path}`, { method });
    }
    catch {
        throw new Error(`cannot reach the cluster at ${server}: is \`kubesim up\` running?`);
    }
    const body = (await response.json());
    if (!response.ok)
        throw new Error(body.message ?? `HTTP ${response.status}`);
    return body;
}
function describe(status) {
    const pid = status.pid ? ` (pid ${status.pid})` : '';
    const restarts = status.restarts ? `, ${status.restarts} restart${status.restarts === 1 ? '' : 's'}` : '';
    return `${status.name.padEnd(20)} ${status.state}${pid}${restarts}`;
}
export async function componentAction(action, argv) {
    const { flags: parsed, positional } = parseFlags(argv, flags);
    const name = positional[0];
    if (!name)
        throw new UsageError(`usage: kubesim ${action} <component>   (see \`kubesim status\` for the components)`);
    const status = (await call(String(parsed['kubeconfig']), 'POST', `${CONTROL_PREFIX}/${encodeURIComponent(name)}/${action}`));
    console.log(describe(status));
}
export async function status(argv) {
    const { flags: parsed } = parseFlags(argv, flags);
    const body = (await call(String(parsed['kubeconfig']), 'GET', CONTROL_PREFIX));
    console.log(`${'COMPONENT'.padEnd(20)} STATE`);
    for (const component of body.components)
        console.log(describe(component));
}
/** down asks a running `kubesim up` to stop everything. */
export async function down(argv) {
    const { flags: parsed } = parseFlags(argv, flags);
    await call(String(parsed['kubeconfig']), 'POST', SHUTDOWN_PATH);
    console.log('kubesim: the cluster is stopping');
}
//# sourceMappingURL=component-control.js.map