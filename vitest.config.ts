import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    testTimeout: 15_000,
    hookTimeout: 15_000,
    // Most test time is spent waiting on sockets and child processes, not on the CPU, so one
    // worker per core (Vitest's default leaves one core idle) keeps both cores busy.
    maxWorkers: availableParallelism(),
    // Test files clean up what they start, so a worker may reuse its module graph between files;
    // re-importing the SDKs for each of ~120 files was a large part of the run.
    isolate: false,
    // What a file sets up per file when it shares a worker: its own process-tree marker.
    setupFiles: ["test/setup/per-file.ts"],
    // A spy a failing test left on (process.stderr.write, JSON.parse) must not reach the next file.
    restoreMocks: true,
    // Type tests (`*.test-d.ts`) are checked by tsc, never run; Vitest reports each as a test.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  },
});
