export const KUBERNETES_VERSION = { major: '1', minor: '31', gitVersion: 'v1.31.0' };
export function registerVersionRoutes(app) {
    app.get('/version', async () => ({
        ...KUBERNETES_VERSION,
        gitCommit: 'kubesim',
        gitTreeState: 'clean',
        buildDate: '2026-11-22T00:00:00Z',
        goVersion: `node${process.versions.node}`,
        compiler: 'kubesim',
        platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
    }));
    for (const path of ['/healthz', '/livez', '/readyz']) {
        app.get(path, async (_request, reply) => reply.type('text/plain').send('ok'));
    }
}
//# sourceMappingURL=version.js.map