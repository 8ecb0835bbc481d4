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
    // re-importing the SDKs for each of ~200 files was a large part of the run.
    isolate: false,
    // Type tests (`*.test-d.ts`) are checked by tsc, never run; Vitest reports each as a test.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "tsconfig.json" },
  },
});
