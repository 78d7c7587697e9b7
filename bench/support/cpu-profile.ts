/**
 * Reads a V8 .cpuprofile and ranks where the time went: self time per function, self time per area
 * (a package under node_modules, a project folder, node internals, GC), the same with node's own code
 * charged to the package that called it (its "owner"), and inclusive time per
 * project function (the time spent in it and everything it called, counted once per sample even when
 * it recurses). Percentages are of the non-idle samples: the share of the CPU the process used.
 */
import fs from 'node:fs';
import path from 'node:path';

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

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface Ranked {
  name: string;
  ms: number;
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  selfByFunction: Ranked[];
  selfByArea: Ranked[];
  /** Self time charged to the nearest package or project folder on the stack: a writev called by pg counts as pg. */
  selfByOwner: Ranked[];
  inclusiveByProjectFunction: Ranked[];
}

const ROOT = path.resolve(__dirname, '..', '..');

const isProject = (frame: CallFrame) => frame.url !== '' && !frame.url.startsWith('node:') && !frame.url.includes('/node_modules/');

function relativeUrl(url: string): string {
  const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  return file.startsWith(ROOT + '/') ? file.slice(ROOT.length + 1) : file;
}

/** The package a file belongs to (scoped names kept), the project folder, or node's own code. */
function areaOf(frame: CallFrame): string {
  const fn = frame.functionName;
  if (!frame.url) return fn.startsWith('(') ? fn : 'native code (syscalls, C++ builtins)';
  if (frame.url.startsWith('node:')) return 'node internals';
  const rel = relativeUrl(frame.url);
  const nm = rel.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = rel.slice(nm + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const parts = rel.split('/');
  return parts.length > 1 && !rel.startsWith('/') ? `${parts[0]}/${parts.length > 2 ? parts[1] + '/' : ''}` : rel;
}

function functionKey(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  // Project files run through tsx, whose output lines do not match the source: the file says more.
  if (isProject(frame)) return `${name}  ${relativeUrl(frame.url)}`;
  return `${name}  ${relativeUrl(frame.url)}:${frame.lineNumber + 1}`;
}

function rank(totals: Map<string, number>, busyMs: number, top: number): Ranked[] {
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms: Number(ms.toFixed(1)), percent: Number(((ms / busyMs) * 100).toFixed(1)) }));
}

export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

  const self = new Map<string, number>();
  const area = new Map<string, number>();
  const owner = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idleMs = 0;
  let busyMs = 0;
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);

  profile.samples.forEach((id, i) => {
    // A sample's delta is the time since the previous one: the time the sampled stack stood for. The
    // first one runs from the profiler's start, which includes starting it: left out.
    const ms = i === 0 ? 0 : (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') {
      idleMs += ms;
      return;
    }
    busyMs += ms;
    add(self, functionKey(node.callFrame), ms);
    add(area, areaOf(node.callFrame), ms);
    let charged = areaOf(node.callFrame);
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      if (frame.url && !frame.url.startsWith('node:')) {
        charged = areaOf(frame);
        break;
      }
    }
    add(owner, charged, ms);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const frame = byId.get(cur)!.callFrame;
      if (!isProject(frame)) continue;
      const key = functionKey(frame);
      if (seen.has(key)) continue;
      seen.add(key);
      add(inclusive, key, ms);
    }
  });
  return {
    busyMs: Number(busyMs.toFixed(1)),
    idleMs: Number(idleMs.toFixed(1)),
    selfByFunction: rank(self, busyMs, top),
    selfByArea: rank(area, busyMs, top),
    selfByOwner: rank(owner, busyMs, top),
    inclusiveByProjectFunction: rank(inclusive, busyMs, top),
  };
}

export function formatProfileSummary(s: ProfileSummary): string {
  const list = (title: string, items: Ranked[]) =>
    [title, ...items.map((r) => `  ${r.percent.toFixed(1).padStart(5)}%  ${r.ms.toFixed(0).padStart(7)} ms  ${r.name}`)].join('\n');
  return [
    `busy ${s.busyMs.toFixed(0)} ms, idle ${s.idleMs.toFixed(0)} ms (percentages are of busy time)`,
    list('self time by area:', s.selfByArea),
    list('self time by owner (node internals and native code charged to the package or folder that called them):', s.selfByOwner),
    list('self time by function:', s.selfByFunction),
    list('inclusive time by project function:', s.inclusiveByProjectFunction),
  ].join('\n');
}
