/**
 * Chaos carries out chaos requests against a `kubesim up` cluster: it kills and stops
 * supervised loops, cuts them off the API server with fault rules, stops nodes' kubelets and
 * slows the API, and undoes each on the cluster clock when its time is up. Every answer says
 * what was done and what convergence to expect (explain.ts).
 *
 * Durations are cluster time, like fault rules' ttlSeconds: a run at --speed 10 is over ten
 * times sooner, and a paused clock holds every disturbance where it is.
 */
import { ApiError, badRequest, notFound } from '../../apiserver/api/api-error.js';
import { CHAOS_API_VERSION, type ChaosRequest, type ChaosResult, type ChaosStep } from '../../apiserver/api/kubesim/chaos.js';
import { createRandom, type Random } from '../../apiserver/api/machinery/random.js';
import type { FaultInjector } from '../../apiserver/faults/injector.js';
import type { FaultRuleInput } from '../../apiserver/faults/rule-schema.js';
import { componentName, isControllerName } from '../../controllers/catalog.js';
import type { Clock, TimerHandle } from '../../controllers/runtime/types.js';
import { API_SERVER_COMPONENT, type ComponentControl, type KilledStatus } from '../components.js';
import { catchUp, duration, NODE_STOP_STORY, whileDown } from './explain.js';
import { randomChaosSchedule } from './random-schedule.js';

/** NodeControl stops and starts simulated nodes' kubelets (cli/chaos/node-control.ts). */
export interface NodeControl {
  /** The nodes' names. */
  names(): Promise<string[]>;
  /** Stops or starts a node's kubelet; resolves with a line saying what happened. */
  set(name: string, action: 'stop' | 'start'): Promise<string>;
}

export interface ChaosDeps {
  /** The supervised processes and the loops the shared process hosts (cli/components.ts). */
  components: Pick<ComponentControl, 'names' | 'act'>;
  faults: Pick<FaultInjector, 'add' | 'remove'>;
  nodes: NodeControl;
  /** The cluster clock: disturbances end on it. */
  clock: Clock;
  /** Draws the seed of a random run that names none. */
  random?: Random;
  /** Where a random run reports each step (and a step that failed). */
  notify?: (message: string) => void;
}

const DEFAULT_SECONDS = { partition: 30, 'slow-api': 30, random: 60 } as const;
const DEFAULT_LATENCY_MS = 300;

/** What one action did: the answer's words and the fault rule it added, if any. */
type Outcome = Pick<ChaosResult, 'did' | 'expect' | 'faultRule' | 'seed' | 'schedule'>;

export class Chaos {
  /** The timer that undoes a disturbance, by what it undoes (`loop:x`, `node:y`, `random`). */
  private readonly pending = new Map<string, TimerHandle>();
  private readonly randomRuns = new Set<TimerHandle>();

  constructor(private readonly deps: ChaosDeps) {}

  /** run carries out `request`; throws ApiError 400 (bad request), 404 (unknown target) or
   * 409 (a loop that is not running cannot be killed). */
  async run(request: ChaosRequest): Promise<ChaosResult> {
    const outcome = await this.act(request);
    const { action, target, seconds } = request;
    return { apiVersion: CHAOS_API_VERSION, kind: 'ChaosResult', action, ...(target && { target }), ...(seconds && { seconds }), ...outcome };
  }

  /** stop cancels every pending undo and random step (the cluster is going away). */
  stop(): void {
    for (const timer of [...this.pending.values(), ...this.randomRuns]) timer.cancel();
    this.pending.clear();
    this.randomRuns.clear();
  }

  private async act(request: ChaosRequest): Promise<Outcome> {
    switch (request.action) {
      case 'kill-loop':
        return this.killLoop(this.component(request));
      case 'stop-loop':
        return this.stopLoop(this.component(request), request.seconds);
      case 'cut-watches':
        return this.cutWatches(this.component(request));
      case 'partition':
        return this.partition(this.component(request), request.seconds ?? DEFAULT_SECONDS.partition);
      case 'stop-node':
        return this.stopNode(await this.node(request), request.seconds);
      case 'start-node':
        return this.startNode(await this.node(request));
      case 'slow-api':
        return this.slowApi(request);
      case 'random':
        return this.randomRun(request);
    }
  }

  private async killLoop(name: string): Promise<Outcome> {
    let status: KilledStatus;
    try {
      status = await this.deps.components.act(name, 'kill');
    } catch (err) {
      throw new ApiError('Conflict', 409, `${(err as Error).message}; start it with \`kubesim start ${name}\``);
    }
    const hosted = status.process && status.process !== name;
    return {
      did: hosted
        ? `crashed the ${name} loop inside ${status.process} (pid ${status.pid ?? '?'}): its queue and in-flight work are gone, the process's other loops run on`
        : `killed ${name} (pid ${status.pid ?? '?'}) with SIGKILL`,
      expect: `the supervisor restarts it in ~${Number((status.restartInMs / 1000).toFixed(1))} s (wall time); ${catchUp(name)}`,
    };
  }

  private async stopLoop(name: string, seconds: number | undefined): Promise<Outcome> {
    this.cancel(`loop:${name}`);
    await this.deps.components.act(name, 'stop');
    if (seconds !== undefined) this.later(`loop:${name}`, seconds, () => void this.deps.components.act(name, 'start').catch(() => undefined));
    const until = seconds !== undefined ? ` for ${duration(seconds)}; it starts again then` : `; it stays stopped until \`kubesim start ${name}\``;
    return { did: `stopped ${name}${until}`, expect: `while it is down ${whileDown(name)}; once it runs again ${catchUp(name)}` };
  }

  private cutWatches(name: string): Outcome {
    // The rule ends the watches open now and would touch no later one: it has done its work.
    const rule = this.deps.faults.add({ userAgent: userAgentOf(name), closeWatches: { open: true } });
    this.deps.faults.remove(rule.id);
    return {
      did: `closed ${rule.status.fired} open watch stream(s) of ${name}`,
      expect:
        'its reflectors re-watch at once from the last resourceVersion they saw (a 410 would make them re-list): ' +
        'no event is lost, so nothing needs to change and the cluster stays as it is',
      faultRule: rule.id,
    };
  }

  private partition(name: string, seconds: number): Outcome {
    const rule = this.deps.faults.add({
      userAgent: userAgentOf(name),
      error: { code: 503, message: `kubesim chaos: ${name} is partitioned from the API server` },
      closeWatches: { open: true },
      ttlSeconds: seconds,
    } satisfies FaultRuleInput);
    return {
      did: `partitioned ${name} from the API server for ${duration(seconds)} (fault rule ${rule.id}: 503 to every request, its open watches closed)`,
      expect:
        `its requests fail and it retries with backoff, working from a stale cache; meanwhile ${whileDown(name)}. ` + `When the rule expires, ${catchUp(name)}`,
      faultRule: rule.id,
    };
  }

  private async stopNode(name: string, seconds: number | undefined): Promise<Outcome> {
    this.cancel(`node:${name}`);
    const said = await this.deps.nodes.set(name, 'stop');
    if (seconds !== undefined) {
      this.later(`node:${name}`, seconds, () => {
        this.deps.nodes.set(name, 'start').catch((err: Error) => this.deps.notify?.(`chaos: could not start ${name} again: ${err.message}`));
      });
    }
    const until = seconds !== undefined ? `; it starts again after ${duration(seconds)}` : `; it stays stopped until \`kubesim node start ${name}\``;
    const back = seconds !== undefined ? ' When it starts again it heartbeats and turns Ready.' : '';
    return { did: `${said}${until}`, expect: `${NODE_STOP_STORY}.${back}` };
  }

  private async startNode(name: string): Promise<Outcome> {
    this.cancel(`node:${name}`);
    return {
      did: await this.deps.nodes.set(name, 'start'),
      expect: 'the node heartbeats again and turns Ready; evicted pods stay where their replacements went',
    };
  }

  private slowApi(request: ChaosRequest): Outcome {
    const seconds = request.seconds ?? DEFAULT_SECONDS['slow-api'];
    const latencyMs = request.latencyMs ?? DEFAULT_LATENCY_MS;
    const target = request.target === undefined ? undefined : this.component(request);
    const rule = this.deps.faults.add({ ...(target && { userAgent: userAgentOf(target) }), latencyMs, ttlSeconds: seconds });
    return {
      did: `added ${latencyMs} ms of latency to every API request${target ? ` of ${target}` : ''} for ${duration(seconds)} (fault rule ${rule.id})`,
      expect:
        'requests take longer, so loops fall behind: queues grow and reconciles/s drop in the loop table, but nothing fails. ' +
        'Once the rule expires the queues drain and the cluster converges as before',
      faultRule: rule.id,
    };
  }

  private async randomRun(request: ChaosRequest): Promise<Outcome> {
    const seconds = request.seconds ?? DEFAULT_SECONDS.random;
    const seed = request.seed ?? (this.deps.random ?? createRandom()).int(2 ** 31);
    const nodes = await this.deps.nodes.names().catch(() => []);
    const schedule = randomChaosSchedule({
      seed,
      durationSeconds: seconds,
      intervalSeconds: request.intervalSeconds,
      components: this.chaosTargets(),
      nodes,
    });
    for (const step of schedule) this.scheduleStep(step);
    return {
      did: `random chaos for ${duration(seconds)}, seed ${seed}: ${schedule.length} disturbance(s)\n${schedule.map(describeStep).join('\n')}`,
      expect:
        'every disturbance is undone before the run ends; watch the loop table and the timeline as loops fail and catch up. ' +
        `Afterwards the cluster converges to its desired state again. The same seed replays the same run (--seed ${seed})`,
      seed,
      schedule,
    };
  }

  private scheduleStep(step: ChaosStep): void {
    const timer = this.deps.clock.setTimeout(() => {
      this.randomRuns.delete(timer);
      const request: ChaosRequest = { action: step.action, target: step.target, latencyMs: step.latencyMs, ...(step.seconds > 0 && { seconds: step.seconds }) };
      this.run(request).then(
        (result) => this.deps.notify?.(`chaos: ${result.did}`),
        (err: Error) => this.deps.notify?.(`chaos: ${describeStep(step)} failed: ${err.message}`),
      );
    }, step.atSeconds * 1000);
    this.randomRuns.add(timer);
  }

  /** chaosTargets are the components chaos may disturb: all but the API server, which carries
   * the chaos request itself (kill it with \`kill -9\` to see it restarted). */
  private chaosTargets(): string[] {
    return this.deps.components.names().filter((name) => name !== API_SERVER_COMPONENT);
  }

  /** component is the request's target, which must be a supervised component. */
  private component(request: ChaosRequest): string {
    const names = this.chaosTargets();
    if (request.target === undefined) throw badRequest(`${request.action} needs a target: one of ${names.join(', ')}`);
    if (!names.includes(request.target)) {
      throw withMessage(
        notFound({ group: 'kubesim.io', resource: 'components', name: request.target }),
        `component "${request.target}" not found; components: ${names.join(', ')}`,
      );
    }
    return request.target;
  }

  /** node is the request's target, which must be a node. */
  private async node(request: ChaosRequest): Promise<string> {
    const names = await this.deps.nodes.names();
    if (request.target === undefined) throw badRequest(`${request.action} needs a target node: one of ${names.join(', ') || '(none)'}`);
    if (!names.includes(request.target)) {
      throw withMessage(
        notFound({ group: '', resource: 'nodes', name: request.target }),
        `node "${request.target}" not found; nodes: ${names.join(', ') || '(none)'}`,
      );
    }
    return request.target;
  }

  private later(key: string, seconds: number, fn: () => void): void {
    const timer = this.deps.clock.setTimeout(() => {
      this.pending.delete(key);
      fn();
    }, seconds * 1000);
    this.pending.set(key, timer);
  }

  private cancel(key: string): void {
    this.pending.get(key)?.cancel();
    this.pending.delete(key);
  }
}

/** userAgentOf is the User-Agent fragment of a component's requests: `kubesim up` runs each
 * controller as its own process, which run-controllers.ts names `<name>-controller`; the
 * scheduler and the kubelet simulator name themselves. The trailing slash keeps
 * `endpoints` from matching `endpointslice`. */
export function userAgentOf(component: string): string {
  return `kubesim-${isControllerName(component) ? componentName([component]) : component}/`;
}

/** describeStep words one step of a random run. */
export function describeStep(step: ChaosStep): string {
  const what = step.action === 'slow-api' ? `slow-api ${step.latencyMs} ms` : `${step.action} ${step.target ?? ''}`.trim();
  return `  at ${step.atSeconds} s: ${what}${step.seconds > 0 ? ` for ${step.seconds} s` : ''}`;
}

function withMessage(err: ApiError, message: string): ApiError {
  return new ApiError(err.reason, err.code, message, err.details);
}
