/**
 * Builders for core/v1 ContainerStatus values as a containerd-backed kubelet reports them:
 * normalised image references, sha256 image IDs and containerd:// container IDs. IDs are
 * hashes of stable inputs, so the same pod always gets the same IDs (golden tests). Pure.
 */
import { createHash } from 'node:crypto';
import type { ContainerStatus } from '../../apiserver/api/core/pod-status.js';
import { rfc3339 } from '../../apiserver/api/machinery/time.js';
import { type ContainerRef, hasRun } from './classify.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** normalizeImage spells an image the way containerd reports it:
 * `nginx` → `docker.io/library/nginx:latest`, `me/app:1` → `docker.io/me/app:1`. */
export function normalizeImage(image: string | undefined): string {
  const name = image || 'unknown';
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const hasRegistry = first.includes('.') || first.includes(':') || first === 'localhost';
  const qualified = hasRegistry ? name : slash < 0 ? `docker.io/library/${name}` : `docker.io/${name}`;
  const lastSegment = qualified.slice(qualified.lastIndexOf('/') + 1);
  return qualified.includes('@') || lastSegment.includes(':') ? qualified : `${qualified}:latest`;
}

/** imageIdOf is the repository digest of an image: `<repository>@sha256:<hex>`. */
export function imageIdOf(image: string | undefined): string {
  const normalized = normalizeImage(image);
  const repository = normalized.replace(/@.*$/, '').replace(/:[^:/]*$/, '');
  return `${repository}@sha256:${sha256(`image:${normalized}`)}`;
}

/** containerIdOf names one run of a container: a new ID per restart. */
export function containerIdOf(podUid: string, container: string, restartCount: number): string {
  return `containerd://${sha256(`${podUid}/${container}/${restartCount}`)}`;
}

/** previousTermination is the termination a restart moves into lastState. */
function previousTermination(ref: ContainerRef): ContainerStatus['lastState'] {
  const terminated = ref.status?.state?.terminated ?? ref.status?.lastState?.terminated;
  return terminated ? { terminated: structuredClone(terminated) as NonNullable<ContainerStatus['state']>['terminated'] } : {};
}

/** waitingStatus keeps the container's counters and last termination, with a waiting state. */
export function waitingStatus(ref: ContainerRef, reason: string, message?: string): ContainerStatus {
  const previous = ref.status;
  const status: ContainerStatus = {
    name: ref.name,
    state: { waiting: message ? { reason, message } : { reason } },
    lastState: structuredClone(previous?.lastState ?? {}) as ContainerStatus['lastState'],
    ready: false,
    restartCount: previous?.restartCount ?? 0,
    image: previous?.image ?? ref.spec.image ?? '',
    imageID: previous?.imageID ?? '',
    started: false,
  };
  if (previous?.containerID) status.containerID = previous.containerID;
  return status;
}

/** runningStatus is a fresh run of the container: a restart when it ran before (restartCount
 * + 1, the last termination moves to lastState). */
export function runningStatus(ref: ContainerRef, options: { podUid: string; nowMs: number; ready: boolean }): ContainerStatus {
  const restart = hasRun(ref.status);
  const restartCount = (ref.status?.restartCount ?? 0) + (restart ? 1 : 0);
  return {
    name: ref.name,
    state: { running: { startedAt: rfc3339(options.nowMs) } },
    lastState: restart ? previousTermination(ref) : {},
    ready: options.ready,
    restartCount,
    image: normalizeImage(ref.spec.image),
    imageID: imageIdOf(ref.spec.image),
    containerID: containerIdOf(options.podUid, ref.name, restartCount),
    started: true,
  };
}

/** terminatedStatus ends the current run with `exitCode`. */
export function terminatedStatus(ref: ContainerRef, options: { nowMs: number; exitCode: number; reason?: string; message?: string }): ContainerStatus {
  const previous = ref.status;
  const terminated: NonNullable<NonNullable<ContainerStatus['state']>['terminated']> = {
    exitCode: options.exitCode,
    reason: options.reason ?? (options.exitCode === 0 ? 'Completed' : 'Error'),
    startedAt: previous?.state?.running?.startedAt ?? rfc3339(options.nowMs),
    finishedAt: rfc3339(options.nowMs),
  };
  if (options.message) terminated.message = options.message;
  if (previous?.containerID) terminated.containerID = previous.containerID;
  return {
    name: ref.name,
    state: { terminated },
    lastState: structuredClone(previous?.lastState ?? {}) as ContainerStatus['lastState'],
    // A plain init container that completed reports ready, as the kubelet does.
    ready: ref.init && options.exitCode === 0,
    restartCount: previous?.restartCount ?? 0,
    image: previous?.image ?? normalizeImage(ref.spec.image),
    imageID: previous?.imageID ?? imageIdOf(ref.spec.image),
    containerID: previous?.containerID ?? '',
    started: false,
  };
}

/** crashLoopStatus: waiting out the restart backoff; the termination moves to lastState. */
export function crashLoopStatus(ref: ContainerRef, message: string): ContainerStatus {
  const status = waitingStatus(ref, 'CrashLoopBackOff', message);
  status.lastState = previousTermination(ref);
  return status;
}
