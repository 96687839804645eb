import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * `npm run bench -- --profile <dir>`: every service runs with `node --cpu-prof`, and at the end
 * each profile is summarised as the share of its busy samples (self time; idle and module
 * loading left out) by where the code lives: a package under node_modules, node's own internals,
 * or the project's file; then the hottest functions.
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
}

/** `…/node_modules/.pnpm/x@1/node_modules/@scope/name/…` → `@scope/name`; project files as path. */
function bucketOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName ? `(${functionName})` : '(native)';
  const at = url.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const rest = url.slice(at + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return url;
  const project = /\/(schema|platform|providers|subgraphs\/\w+|gateway|rest-adapter|stack)\//.exec(
    url,
  );
  return project ? `project: ${project[1]}` : url;
}

/** A function by name and file, for the list of the hottest functions. */
function functionOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  return `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}`;
}

/**
 * The nodes under module loading (importing, compiling, linking: start-up, not the load under
 * test), found through their ancestors.
 */
function loadingNodes(profile: CpuProfile): Set<number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const loading = new Set<number>();
  for (const node of profile.nodes) {
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      if (byId.get(id)!.callFrame.url.startsWith('node:internal/modules/')) {
        loading.add(node.id);
        break;
      }
    }
  }
  return loading;
}

function top(profile: CpuProfile, key: (node: ProfileNode) => string, count: number): string[] {
  const totals = new Map<string, number>();
  const loading = loadingNodes(profile);
  let all = 0;
  for (const node of profile.nodes) {
    if (loading.has(node.id)) continue;
    const hits = node.hitCount ?? 0;
    // Shares of the busy time after start-up: idle and module loading are left out.
    if (!hits || node.callFrame.functionName === '(idle)') continue;
    all += hits;
    totals.set(key(node), (totals.get(key(node)) ?? 0) + hits);
  }
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => `${((100 * hits) / all).toFixed(1).padStart(5)} %  ${name}`);
}

/** The top buckets (packages) and the hottest functions of one profile, as `share% name`. */
export function summariseProfile(profile: CpuProfile): string[] {
  return [...top(profile, bucketOf, 10), '  hottest functions:', ...top(profile, functionOf, 8)];
}

/** Summaries of every profile in `dir` whose pid is one of `names`. */
export async function summariseProfiles(dir: string, names: Map<number, string>): Promise<string> {
  const out: string[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile')).sort()) {
    const pid = Number(file.split('.')[3]);
    const name = names.get(pid);
    if (!name) continue;
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    out.push(`${name} (${file}):`, ...summariseProfile(profile).map((l) => `  ${l}`), '');
  }
  return out.join('\n');
}
