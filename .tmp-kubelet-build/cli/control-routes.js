export const CONTROL_PREFIX = '/kubesim/v1/components';
export const SHUTDOWN_PATH = '/kubesim/v1/shutdown';
export function registerControlRoutes(app, supervisor, onShutdown) {
    const notFound = (name) => ({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: `component "${name}" not found; components: ${supervisor.names().join(', ')}`,
    });
    app.get(CONTROL_PREFIX, async () => ({ components: supervisor.status() }));
    app.post(SHUTDOWN_PATH, async () => {
        setImmediate(onShutdown);
        return { status: 'stopping' };
    });
    app.post(`${CONTROL_PREFIX}/:name/:action`, async (request, reply) => {
        const { name, action } = request.params;
        if (!supervisor.names().includes(name))
            return reply.code(404).send(notFound(name));
        if (action === 'stop')
            return supervisor.stop(name);
        if (action === 'start')
            return supervisor.start(name);
        return reply.code(404).send({ ...notFound(name), message: `unknown action ${JSON.stringify(action)}: use start or stop` });
    });
}
//# sourceMappingURL=control-routes.js.map