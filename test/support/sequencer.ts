import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The setup file of a project whose files take turns (`one-file-at-a-time.ts`). */
export const TAKES_TURNS = 'test/support/file-lock-ready.ts';

/**
 * Seconds the longest files of the turn-taking projects take (fresh clones, issue 22, boots in
 * `beforeAll` included); any other file counts as `SHORT_FILE_SECONDS`. A fresh clone has no
 * durations cached, so vitest would order these by size. Only the order depends on the figures:
 * a wrong one makes a file wait for its turn longer, never run beside another of its project.
 */
const EXPECTED_SECONDS: Record<string, number> = {
  'test/faults/slow-smtp.test.ts': 29,
  'test/faults/observability.test.ts': 23,
  'test/faults/lens-kill.test.ts': 17,
  'test/faults/lens-database-outage.test.ts': 16,
  'test/faults/database-outage.test.ts': 14,
  'test/faults/notification-faults.test.ts': 13,
  'test/faults/outside-systems.test.ts': 13,
  'test/faults/replicas.test.ts': 9,
};
const SHORT_FILE_SECONDS = 3;

const takesTurns = (spec: TestSpecification) =>
  spec.project.config.setupFiles.some((file) => file.endsWith(TAKES_TURNS));

const expectedSeconds = (spec: TestSpecification) =>
  Object.entries(EXPECTED_SECONDS).find(([path]) => spec.moduleId.endsWith(path))?.[1] ??
  SHORT_FILE_SECONDS;

/**
 * How much later than planned a file of a project that does not bound the tier is queued. Its
 * files are mostly boots of a stack of their own, which a loaded machine slows more than the
 * waits of the longest project (loaded runs: observability 23 s → 47 s and 64 s with its boot,
 * slow-smtp 29 s → 36 s and 35 s); a file of the longest project should rather wait for its turn
 * than have its worker wait for another project's. 1.5 still left the faults stack idle 18 s in
 * a loaded fresh clone; with 2 a quiet machine's order costs about a second over the best one.
 */
const SHORTER_PROJECTS_LATE = 2;

/**
 * Vitest's order (tiers by `sequence.groupOrder`, then project by project), except for the
 * projects of a tier that take turns beside each other (one file of each at a time): a worker
 * whose file ended takes the next file of this order, and waits if another file of that
 * project still runs. So their files are ordered by when each would start if every project ran
 * its files one after another, longest first, all projects at once (the shorter projects'
 * starts stretched by `SHORTER_PROJECTS_LATE`): the worker whose file ended then mostly finds
 * the next file of that same project (project after project, the second project's files would
 * all wait for the first's).
 */
export class TierSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const tierOf = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const projects = new Map<string, TestSpecification[]>();
    for (const spec of sorted.filter(takesTurns)) {
      const key = `${tierOf(spec)}/${spec.project.name}`;
      projects.set(key, [...(projects.get(key) ?? []), spec]);
    }
    const total = (specs: TestSpecification[]) =>
      specs.reduce((sum, spec) => sum + expectedSeconds(spec), 0);
    const longest = new Map<number, number>();
    for (const specs of projects.values()) {
      const tier = tierOf(specs[0]!);
      longest.set(tier, Math.max(longest.get(tier) ?? 0, total(specs)));
    }
    const planned = new Map<TestSpecification, number>();
    for (const specs of projects.values()) {
      const late = total(specs) < longest.get(tierOf(specs[0]!))! ? SHORTER_PROJECTS_LATE : 1;
      let start = 0;
      // Array.prototype.sort is stable: files of equal length keep vitest's order.
      for (const spec of [...specs].sort((a, b) => expectedSeconds(b) - expectedSeconds(a))) {
        planned.set(spec, start * late);
        start += expectedSeconds(spec);
      }
    }
    return [...sorted].sort(
      (a, b) =>
        tierOf(a) - tierOf(b) ||
        // Within a tier: the others first (vitest's order), then the turn-taking files.
        Number(planned.has(a)) - Number(planned.has(b)) ||
        (planned.get(a) ?? 0) - (planned.get(b) ?? 0),
    );
  }
}
