import { readFileSync } from "node:fs";

/**
 * `node --import tsx bench/profile-summary.ts file.cpuprofile [top]`: a V8 CPU profile's self time by function
 * and by module (a package under node_modules, node's own code, a file of the shop), idle time left out, so a
 * bench's profile (BURST_CPU_PROFILE, ORDER_CPU_PROFILE) reads as a table.
 */
type Node = {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
};
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

const [file, top = "30", callersOf] = process.argv.slice(2);
if (!file)
  throw new Error("usage: profile-summary.ts file.cpuprofile [top] [function whose callers to list]");
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMicros = new Map<number, number>();
// A sample's delta is the time since the one before: it is charged to this sample's node.
profile.samples.forEach((id, index) => {
  selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});

function moduleOf(url: string) {
  if (!url) return "(native / V8)";
  const inPackage = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (inPackage) return inPackage[1] ?? url;
  if (url.startsWith("node:")) return url.split("/")[0] ?? url;
  return url.replace(/^file:\/\//, "").replace(/^.*?\/(server|common|bench|tests)\//, "$1/");
}

const functions = new Map<string, number>();
const modules = new Map<string, number>();
let busy = 0;
for (const [id, micros] of selfMicros) {
  const node = byId.get(id);
  if (!node) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  if (functionName === "(idle)") continue;
  busy += micros;
  const where = moduleOf(url);
  const name = `${functionName || "(anonymous)"} ${where}${url ? `:${lineNumber + 1}` : ""}`;
  functions.set(name, (functions.get(name) ?? 0) + micros);
  const group = url ? where : functionName;
  modules.set(group, (modules.get(group) ?? 0) + micros);
}

function print(title: string, table: Map<string, number>) {
  console.log(`\n${title}`);
  for (const [name, micros] of [...table].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
    console.log(
      `${(micros / 1000).toFixed(1).padStart(9)} ms ${((micros / busy) * 100).toFixed(1).padStart(5)} %  ${name}`,
    );
  }
}
console.log(`busy (not idle): ${(busy / 1000).toFixed(0)} ms`);
print("self time by module", modules);
print("self time by function", functions);

// Who calls a function (native ones such as writeBuffer say nothing of themselves): its self time by the chain
// of the four frames above it.
if (callersOf) {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const chains = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    if (byId.get(id)?.callFrame.functionName !== callersOf) continue;
    const chain: string[] = [];
    for (let at = parentOf.get(id); at !== undefined && chain.length < 4; at = parentOf.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame)
        chain.push(`${frame.functionName || "(anonymous)"} ${moduleOf(frame.url)}:${frame.lineNumber + 1}`);
    }
    const key = chain.join(" < ");
    chains.set(key, (chains.get(key) ?? 0) + micros);
  }
  print(`callers of ${callersOf}`, chains);
}
