/**
 * What simulated containers print: start-up lines (nginx-like for nginx images, a generic
 * server otherwise), access-log lines while running, and the reason of an exit. Pure: the
 * randomness comes from a seeded generator the caller owns.
 */
/** createSeededRng is mulberry32: small, fast, good enough for made-up log lines. */
export function createSeededRng(seed) {
    let state = seed >>> 0;
    return () => {
        state = (state + 0x6d2b79f5) >>> 0;
        let t = state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
    };
}
/** seedOf hashes text (FNV-1a) into a 32-bit seed. */
export function seedOf(text) {
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++)
        hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
    return hash;
}
const pick = (rng, items) => items[Math.floor(rng() * items.length)];
const pad = (n, width = 2) => String(n).padStart(width, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** nginxTime is nginx's error-log time: `2024/05/01 12:00:00`. */
function nginxTime(ms) {
    const d = new Date(ms);
    return `${d.getUTCFullYear()}/${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}
/** commonLogTime is the access-log time: `01/May/2024:12:00:05 +0000`. */
function commonLogTime(ms) {
    const d = new Date(ms);
    return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}
/** isNginx: images whose name mentions nginx get nginx-flavoured lines. */
export function isNginx(image) {
    return /(^|\/)nginx([:@-]|$)/.test(image) || image.includes('nginx');
}
/** startupLines is what a container prints as it starts. */
export function startupLines(options) {
    if (!isNginx(options.image)) {
        return [
            `kubesim: simulated container "${options.container}" (image ${options.image}) starting`,
            'loading configuration from environment',
            'listening on 0.0.0.0:8080',
        ];
    }
    const at = nginxTime(options.atMs);
    return [
        '/docker-entrypoint.sh: Configuration complete; ready for start up',
        `${at} [notice] 1#1: using the "epoll" event method`,
        `${at} [notice] 1#1: nginx/1.27.0 (simulated by kubesim)`,
        `${at} [notice] 1#1: start worker processes`,
        `${at} [notice] 1#1: start worker process 29`,
    ];
}
const PATHS = ['/', '/', '/', '/index.html', '/healthz', '/api/items', '/api/items/42', '/favicon.ico', '/static/app.js'];
const AGENTS = ['curl/8.5.0', 'kube-probe/1.31', 'Mozilla/5.0 (X11; Linux x86_64)', 'Go-http-client/1.1'];
/** accessLine is one request the simulated server answered at atMs. */
export function accessLine(rng, atMs) {
    const client = `10.244.${Math.floor(rng() * 4)}.${2 + Math.floor(rng() * 250)}`;
    const path = pick(rng, PATHS);
    const status = path === '/favicon.ico' ? 404 : rng() < 0.03 ? 500 : 200;
    const bytes = status === 200 ? 200 + Math.floor(rng() * 4000) : 153;
    return `${client} - - [${commonLogTime(atMs)}] "GET ${path} HTTP/1.1" ${status} ${bytes} "-" "${pick(rng, AGENTS)}" "-"`;
}
/** exitLines is what a container prints as it ends, naming the reason (and code). */
export function exitLines(options) {
    const { exitCode, reason } = options;
    if (exitCode === 0 && isNginx(options.image)) {
        const at = nginxTime(options.atMs);
        return [`${at} [notice] 1#1: signal 3 (SIGQUIT) received, shutting down`, `${at} [notice] 1#1: exit`];
    }
    if (exitCode === 0)
        return [`kubesim: ${reason}; exiting with code 0`];
    return [`fatal: ${reason}`, `kubesim: container exiting with code ${exitCode}`];
}
//# sourceMappingURL=log-lines.js.map