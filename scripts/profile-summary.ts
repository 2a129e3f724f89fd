// npx tsx scripts/profile-summary.ts <file.cpuprofile> [n]: where a CPU profile's time went, as
// the share of samples in each function itself ("self") and under it ("total"), top n of each.
// The profiles come from `node --cpu-prof` (BENCH_CPU_PROF=<dir> npm run bench -- places).
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

const [file, top = '30'] = process.argv.slice(2);
if (!file) {
  console.error('Usage: npx tsx scripts/profile-summary.ts <file.cpuprofile> [n]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const name = ({ callFrame: f }: ProfileNode) =>
  `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;

const self = new Map<string, number>();
const total = new Map<string, number>();
let all = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  all += dt;
  self.set(name(nodes.get(id)!), (self.get(name(nodes.get(id)!)) ?? 0) + dt);
  // a function counted once per sample, however deep it recurses
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = name(nodes.get(at)!);
    if (seen.has(key)) continue;
    seen.add(key);
    total.set(key, (total.get(key) ?? 0) + dt);
  }
});
for (const [title, table] of [
  ['self', self],
  ['total', total],
] as const) {
  console.log(`${title}:`);
  for (const [key, time] of [...table].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`${((100 * time) / all).toFixed(1).padStart(6)}%  ${key}`);
}
