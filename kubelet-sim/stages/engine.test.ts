/**
 * Golden tests of the stage engine: each testdata/<case>.input.yaml (a pod, a node, a start
 * time and how far to run) is simulated and the transitions are compared with
 * testdata/<case>.output.yaml. Run `npx vitest run kubelet-sim -u` to rewrite the outputs
 * after an intended change, and review the diff.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { ContainerStatus } from '../../apiserver/api/core/pod-status.js';
import { parseBehaviour } from '../behaviour.js';
import { type SimulationStep, simulate } from './simulate.js';
import type { NodeFacts } from './types.js';

const TESTDATA = join(import.meta.dirname, 'testdata');

interface GoldenInput {
  description: string;
  start: string;
  maxSteps: number;
  /** Seconds after start. */
  until?: number;
  node: NodeFacts;
  pod: Pod;
}

function describeContainer(status: ContainerStatus): string {
  const state = status.state ?? {};
  const text = state.running
    ? 'running'
    : state.terminated
      ? `terminated(${state.terminated.reason}, exit ${state.terminated.exitCode})`
      : `waiting(${state.waiting?.reason ?? ''})`;
  return `${text} ready=${status.ready} restarts=${status.restartCount}`;
}

function summarize(step: SimulationStep, startMs: number): Record<string, unknown> {
  const status = step.pod?.status;
  const containers: Record<string, string> = {};
  for (const s of status?.initContainerStatuses ?? []) containers[`init:${s.name}`] = describeContainer(s);
  for (const s of status?.containerStatuses ?? []) containers[s.name] = describeContainer(s);
  for (const s of status?.ephemeralContainerStatuses ?? []) containers[`ephemeral:${s.name}`] = describeContainer(s);
  return {
    at: `+${((step.atMs - startMs) / 1000).toFixed(3)}s`,
    stage: step.stage,
    target: step.target,
    ...(step.result.delete ? { delete: true } : { phase: status?.phase, containers }),
    ...(status ? { conditions: (status.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(' ') } : {}),
    ...(step.result.events.length ? { events: step.result.events.map((e) => `${e.type} ${e.reason}: ${e.message}`) } : {}),
    ...(step.result.changes.length ? { changes: step.result.changes } : {}),
  };
}

function run(input: GoldenInput): string {
  const startMs = Date.parse(input.start);
  const steps = simulate({
    pod: input.pod,
    node: input.node,
    behaviour: parseBehaviour(input.pod).behaviour,
    startMs,
    maxSteps: input.maxSteps,
    untilMs: input.until === undefined ? undefined : startMs + input.until * 1000,
  });
  const last = steps.at(-1);
  return stringify({ steps: steps.map((step) => summarize(step, startMs)), finalStatus: last?.pod?.status ?? null }, { lineWidth: 0 });
}

describe('stage engine golden files', () => {
  const cases = readdirSync(TESTDATA)
    .filter((file) => file.endsWith('.input.yaml'))
    .map((file) => file.replace(/\.input\.yaml$/, ''));

  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(5);
  });

  for (const name of cases) {
    const input = parse(readFileSync(join(TESTDATA, `${name}.input.yaml`), 'utf8')) as GoldenInput;
    it(`${name}: ${input.description}`, async () => {
      await expect(run(input)).toMatchFileSnapshot(join(TESTDATA, `${name}.output.yaml`));
    });
  }
});
