/**
 * Supervisor runs the cluster's components as child processes and keeps them running, as a
 * kubelet keeps static pods running: a component that exits is restarted after a backoff
 * (1 s doubling to 30 s, reset once it has stayed up for 10 s), and says so. A learner can
 * stop one loop (it stays stopped until started again) and watch the cluster stop converging.
 *
 *   stopped ──start()──► running ──exit──► backoff ──timer──► running
 *      ▲                    │                 │
 *      └──────stop()────────┴─────stop()──────┘
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
export class Supervisor {
    options;
    components = new Map();
    constructor(options) {
        this.options = options;
        mkdirSync(options.logDir, { recursive: true });
    }
    /** add registers a component (stopped); start() runs it. */
    add(spec) {
        this.components.set(spec.name, { spec, state: 'stopped', restarts: 0, backoffMs: this.initialBackoff });
    }
    names() {
        return [...this.components.keys()];
    }
    status() {
        return [...this.components.values()].map((c) => ({
            name: c.spec.name,
            state: c.state,
            pid: c.child?.pid,
            restarts: c.restarts,
            lastExit: c.lastExit,
        }));
    }
    /** start runs a stopped component now (a component in backoff starts at once). */
    start(name) {
        const component = this.get(name);
        if (component.state === 'running')
            return this.statusOf(component);
        clearTimeout(component.timer);
        component.backoffMs = this.initialBackoff;
        this.launch(component);
        return this.statusOf(component);
    }
    /** stop terminates a component (SIGTERM, then SIGKILL after the timeout) and keeps it stopped. */
    async stop(name) {
        const component = this.get(name);
        clearTimeout(component.timer);
        const child = component.child;
        component.state = 'stopped';
        if (child && child.exitCode === null && child.signalCode === null)
            await this.terminate(child);
        return this.statusOf(component);
    }
    async stopAll() {
        await Promise.all(this.names().map((name) => this.stop(name)));
        for (const component of this.components.values())
            component.log?.end();
    }
    get initialBackoff() {
        return this.options.initialBackoffMs ?? 1000;
    }
    get(name) {
        const component = this.components.get(name);
        if (!component)
            throw new Error(`unknown component ${JSON.stringify(name)}; components: ${this.names().join(', ')}`);
        return component;
    }
    statusOf(component) {
        return this.status().find((s) => s.name === component.spec.name);
    }
    launch(component) {
        const { spec } = component;
        component.log ??= createWriteStream(join(this.options.logDir, `${spec.name}.log`), { flags: 'a' });
        const child = spawn(spec.command, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout?.pipe(component.log, { end: false });
        child.stderr?.pipe(component.log, { end: false });
        component.child = child;
        component.state = 'running';
        component.startedAt = Date.now();
        child.on('exit', (code, signal) => this.onExit(component, child, code, signal));
        child.on('error', (err) => this.options.notify(`${spec.name}: failed to start: ${err.message}`));
    }
    onExit(component, child, code, signal) {
        if (component.child !== child)
            return;
        component.lastExit = { code, signal, at: new Date().toISOString() };
        component.child = undefined;
        if (component.state === 'stopped')
            return;
        const upMs = Date.now() - (component.startedAt ?? 0);
        if (upMs >= (this.options.stableAfterMs ?? 10_000))
            component.backoffMs = this.initialBackoff;
        const delayMs = component.backoffMs;
        component.backoffMs = Math.min(delayMs * 2, this.options.maxBackoffMs ?? 30_000);
        component.state = 'backoff';
        component.restarts++;
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.options.notify(`${component.spec.name} ${how}; restarting in ${(delayMs / 1000).toFixed(1)}s (restart #${component.restarts})`);
        component.timer = setTimeout(() => this.launch(component), delayMs);
    }
    async terminate(child) {
        const exited = new Promise((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timeout = setTimeout(() => child.kill('SIGKILL'), this.options.stopTimeoutMs ?? 5000);
        await exited;
        clearTimeout(timeout);
    }
}
//# sourceMappingURL=supervisor.js.map