import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The usual report, then how long each file took and the slowest ten (tests/durations-reporter.ts).
    reporters: ["default", "./tests/durations-reporter.ts"],
    projects: [
      {
        root: import.meta.dirname,
        test: {
          name: "unit",
          include: ["common/**/*.test.ts", "server/**/*.test.ts", "web/**/*.test.ts", "scripts/**/*.test.ts"],
          globalSetup: ["tests/global-setup.ts", "tests/build-setup.ts"],
          // A worker runs file after file in one process, so the server's modules are imported once per
          // worker, not once per API file (about 1.5 s each).
          isolate: false,
          maxWorkers: 2,
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        root: import.meta.dirname,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          // A worker runs file after file in one process, so the shop and Chromium of tests/shop-test.ts start
          // once per worker, not once per file. A file started the old way still starts and stops its own.
          isolate: false,
          globalSetup: ["tests/global-setup.ts", "tests/build-setup.ts"],
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        root: import.meta.dirname,
        test: {
          // Several shop processes per test (faults, starting together, shutdown, behind nginx): slow, so
          // gathered here and each run once. Vitest queues the projects by name, so these files follow the
          // browser files and run beside the last of them and the unit files, not alone at the end of the run
          // with the other worker idle (their processes wait on starts and restarts for a fifth of the time).
          name: "production",
          include: ["tests/production/**/*.test.ts"],
          globalSetup: ["tests/global-setup.ts", "tests/build-setup.ts"],
          maxWorkers: 2,
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
