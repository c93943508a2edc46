import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files a run names at its end. */
const SLOWEST = 10;

/**
 * Every run writes how long each test file took (test-results/durations.json: import, tests and hooks, by
 * project) and prints the slowest ten at its end, so the next slow file is seen the day it lands.
 */
export default class DurationsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    const root = path.resolve(import.meta.dirname, "..");
    const files = testModules
      .map((module) => {
        const { collectDuration, setupDuration, duration } = module.diagnostic();
        return {
          file: path.relative(root, module.moduleId),
          project: module.project.name,
          state: module.state(),
          seconds: Math.round((collectDuration + setupDuration + duration) / 100) / 10,
        };
      })
      .sort((a, b) => b.seconds - a.seconds);
    if (files.length === 0) return;
    const folder = path.join(root, "test-results");
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, "durations.json"), `${JSON.stringify(files, null, 2)}\n`);
    const width = Math.max(...files.slice(0, SLOWEST).map((each) => each.file.length));
    console.log(
      `\nThe ${Math.min(SLOWEST, files.length)} slowest test files (all ${files.length}: test-results/durations.json):`,
    );
    for (const each of files.slice(0, SLOWEST)) {
      console.log(`  ${each.seconds.toFixed(1).padStart(7)} s  ${each.file.padEnd(width)}  ${each.project}`);
    }
  }
}
