/**
 * A flame graph of a V8 CPU profile (`node --cpu-prof`, or `BENCH_SERVER_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=DIR"` for the bench's server), as an SVG picture for the docs:
 *
 *   npx tsx bench/flamegraph.ts PROFILE.cpuprofile OUT.svg [--title "…"] [--min 0.2]
 *
 * Each box is a function in a call stack, as wide as the share of the samples spent in it and in what
 * it called; callers below, callees above. Identical stacks are merged whatever their order in time;
 * `(idle)` and `(program)` are left out, so the widths are shares of the time the process was busy.
 * Boxes under `--min` percent of that time are dropped. The colour tells where the code lives: Tessera's
 * own code, Node's internals, a dependency, the garbage collector, or native code (system calls).
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

interface Frame {
  name: string;
  kind: 'own' | 'node' | 'dependency' | 'gc' | 'native';
  total: number;
  children: Map<string, Frame>;
}

const LEFT_OUT = new Set(['(idle)', '(program)', '(root)']);

function describe(frame: CallFrame): { name: string; kind: Frame['kind'] } {
  const fn = frame.functionName || '(anonymous)';
  const url = frame.url;
  if (fn === '(garbage collector)') return { name: fn, kind: 'gc' };
  if (!url) return { name: fn, kind: 'native' };
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return { name: `${fn} (${dependency[1]})`, kind: 'dependency' };
  if (url.startsWith('node:')) return { name: `${fn} (${url})`, kind: 'node' };
  const own = /(apps\/[^/]+\/(?:dist|src)\/.*)$/.exec(url);
  return { name: `${fn} (${own ? own[1] : url.split('/').pop()}:${frame.lineNumber + 1})`, kind: 'own' };
}

function build(profile: Profile): Frame {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const weight = new Map<number, number>();
  profile.samples.forEach((id, index) => weight.set(id, (weight.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)));

  const root: Frame = { name: 'all', kind: 'native', total: 0, children: new Map() };
  for (const [id, time] of weight) {
    const stack: CallFrame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!.callFrame);
    stack.reverse();
    if (LEFT_OUT.has(stack[stack.length - 1]?.functionName ?? '')) continue;
    root.total += time;
    let frame = root;
    for (const call of stack) {
      if (LEFT_OUT.has(call.functionName)) continue;
      const { name, kind } = describe(call);
      let child = frame.children.get(name);
      if (!child) frame.children.set(name, (child = { name, kind, total: 0, children: new Map() }));
      child.total += time;
      frame = child;
    }
  }
  return root;
}

const COLOURS: Record<Frame['kind'], string> = {
  own: '#f59e0b',
  node: '#60a5fa',
  dependency: '#a78bfa',
  gc: '#f87171',
  native: '#9ca3af',
};

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function render(root: Frame, title: string, minShare: number): string {
  const width = 1600;
  const row = 17;
  const top = 48;
  const boxes: string[] = [];
  let depthMax = 0;
  const place = (frame: Frame, x: number, depth: number) => {
    depthMax = Math.max(depthMax, depth);
    const share = frame.total / root.total;
    const w = share * width;
    boxes.push(
      `<g><title>${escape(frame.name)}: ${(share * 100).toFixed(1)} %</title>` +
        `<rect x="${x.toFixed(1)}" y="${depth}" width="${Math.max(w - 0.5, 0.5).toFixed(1)}" height="${row - 1}" fill="${COLOURS[frame.kind]}" rx="2"/>` +
        (w > 40
          ? `<text x="${(x + 3).toFixed(1)}" y="${depth}" dy="12" font-size="11">${escape(
              `${frame.name} ${(share * 100).toFixed(1)} %`.slice(0, Math.floor(w / 6.5)),
            )}</text>`
          : '') +
        '</g>',
    );
    let childX = x;
    for (const child of [...frame.children.values()].sort((a, b) => b.total - a.total)) {
      if (child.total / root.total < minShare) continue;
      place(child, childX, depth + 1);
      childX += (child.total / root.total) * width;
    }
  };
  place(root, 0, 0);
  const height = top + (depthMax + 1) * row + 40;
  // Depth 0 at the bottom: callers below their callees.
  const positioned = boxes.map((box) =>
    box.replace(/ y="(\d+)"/g, (_m, depth: string) => ` y="${height - 40 - (Number(depth) + 1) * row}"`),
  );
  const legend = (Object.entries(COLOURS) as [Frame['kind'], string][])
    .map(
      ([kind, colour], index) =>
        `<rect x="${10 + index * 150}" y="${height - 24}" width="12" height="12" fill="${colour}"/>` +
        `<text x="${28 + index * 150}" y="${height - 14}" font-size="12">${
          {
            own: 'Tessera',
            node: 'Node internals',
            dependency: 'dependency',
            gc: 'garbage collector',
            native: 'native / system call',
          }[kind]
        }</text>`,
    )
    .join('');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="10" y="22" font-size="16" font-weight="bold">${escape(title)}</text>`,
    `<text x="10" y="40" font-size="12">${(root.total / 1e6).toFixed(1)} s of busy CPU samples; width = share of them (hover a box for its name and share)</text>`,
    ...positioned,
    legend,
    '</svg>',
  ].join('\n');
}

const args = process.argv.slice(2);
const option = (name: string) => {
  const index = args.indexOf(name);
  if (index < 0) return undefined;
  const [value] = args.splice(index, 2).slice(1);
  return value;
};
const title = option('--title') ?? 'CPU profile';
const minShare = Number(option('--min') ?? 0.2) / 100;
const [input, output] = args;
if (!input || !output) {
  process.stderr.write('usage: tsx bench/flamegraph.ts PROFILE.cpuprofile OUT.svg [--title "…"] [--min PERCENT]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(input, 'utf8')) as Profile;
writeFileSync(output, render(build(profile), title, minShare));
process.stderr.write(`written ${output}\n`);
