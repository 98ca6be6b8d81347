const DEFAULT_GRACE_SECONDS = 30;
export const podStrategy = {
    returnDeletedObject: true,
    gracePeriodSeconds(pod, request) {
        const spec = pod['spec'];
        const phase = pod['status']?.phase;
        if (!spec?.nodeName || phase === 'Succeeded' || phase === 'Failed')
            return undefined;
        const grace = request.gracePeriodSeconds ?? spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
        return grace > 0 ? grace : undefined;
    },
};
//# sourceMappingURL=pod-strategy.js.map