/**
 * Which containers run their main process through the simulated userland (issue 18: a Job's
 * `echo hi` logs `hi` and completes), and which keep the cheap simulated life of today (the
 * stage engine's timings and made-up log lines). Pure and cheap: it reads the pod spec and the
 * image name only, so deciding loads none of the userland's modules.
 *
 * A container runs in the userland when no behaviour annotation scripts its life and
 *   - it has a command (`command`, or `args` alone, which replace the image's CMD: what
 *     `kubectl run x --image=busybox -- sleep 30` sets) on a plain OS image (busybox, alpine,
 *     debian, ubuntu): the image's files decide, so a typo fails to start as on a node; or
 *   - its command's program is one the userland implements (`sh`, `echo`, `sleep`, …), on any
 *     other image (an unknown image's own binaries, `--listen=:8080` options, are not simulated);
 *   - or it has no command, `stdin: true`, and the image's default is a shell (`kubectl run -it`).
 * Everything else (no command: servers, idle images) keeps the simulated life, so an idle
 * cluster costs what it did.
 */
import type { Container } from '../../apiserver/api/core/container.js';
import type { Pod } from '../../apiserver/api/core/pod.js';
import type { DeepReadonly } from '../../controllers/runtime/types.js';
import { BEHAVIOUR_PREFIX } from '../behaviour.js';
import { argsOnlyTakeOptions, imageProfile } from '../userland/images.js';

/** The annotations that script a container's run (they take precedence over its command). */
export const SCRIPTED_LIFE_ANNOTATIONS: readonly string[] = ['crash-after-seconds', 'run-seconds'].map((name) => BEHAVIOUR_PREFIX + name);

const SHELLS = ['sh', 'ash', 'dash', 'bash'];

/** The programs the userland implements (kubelet-sim/userland/commands/index.ts; a unit test
 * keeps the two lists equal). */
export const USERLAND_PROGRAMS: ReadonlySet<string> = new Set([
  ...SHELLS,
  ...['echo', 'printf', 'cat', 'ls', 'mkdir', 'touch', 'rm', 'cp', 'mv', 'env', 'printenv', 'hostname', 'id', 'whoami', 'date', 'ps'],
  ...['sleep', 'uname', 'which', 'kill', 'test', '[', 'true', 'false', 'pwd', 'grep', 'head', 'tail', 'wc', 'sort', 'uniq', 'tee'],
  ...['cut', 'tr', 'seq', 'basename', 'dirname', 'tar'],
  ...['wget', 'curl', 'nc', 'nslookup', 'bind-nslookup', 'dig'],
]);

/** Images whose whole filesystem the userland knows: a missing program is a start error. */
const OS_IMAGES = new Set(['busybox', 'alpine', 'debian', 'ubuntu']);

const programOf = (path: string | undefined): string => (path ?? '').slice((path ?? '').lastIndexOf('/') + 1);

/** runsInUserland: whether the container's main process runs in the simulated userland. */
export function runsInUserland(pod: DeepReadonly<Pod>, container: DeepReadonly<Container>): boolean {
  const command = container.command?.length ? container.command : container.args;
  // The cheap path first: most containers run their image's default and are not attached to.
  if (!command?.length && container.stdin !== true) return false;
  const annotations = pod.metadata.annotations ?? {};
  if (SCRIPTED_LIFE_ANNOTATIONS.some((key) => key in annotations)) return false;
  const image = imageFacts(container.image ?? '');
  if (!command?.length) return image.shellDefault;
  // `args` alone are the command, except for an entrypoint that takes them as options.
  if (!container.command?.length && image.argsTakeOptions) return false;
  return image.osImage || USERLAND_PROGRAMS.has(programOf(command[0]));
}

interface ImageFacts {
  osImage: boolean;
  shellDefault: boolean;
  argsTakeOptions: boolean;
}

/** What runsInUserland asks of an image, remembered per image name: the stage engine asks on
 * every evaluation of a container with a command, and a profile is a few objects to build. */
const imageFactsCache = new Map<string, ImageFacts>();
const IMAGE_FACTS_CACHE_SIZE = 1000;

function imageFacts(image: string): ImageFacts {
  let facts = imageFactsCache.get(image);
  if (!facts) {
    const profile = imageProfile(image);
    facts = {
      osImage: OS_IMAGES.has(profile.family),
      shellDefault: SHELLS.includes(programOf(profile.defaultCommand[0])),
      argsTakeOptions: argsOnlyTakeOptions(profile),
    };
    if (imageFactsCache.size >= IMAGE_FACTS_CACHE_SIZE) imageFactsCache.clear();
    imageFactsCache.set(image, facts);
  }
  return facts;
}
