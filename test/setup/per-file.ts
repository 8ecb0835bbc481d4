/**
 * Runs before each test file, also in a worker that ran other files before (`isolate: false`):
 * a fresh process-tree marker per file, so test/driver/support.ts finds the processes this
 * file's drivers started (and the orphans they left), not those of an earlier file.
 */
import { randomUUID } from "node:crypto";

process.env.MCP_TESTKIT_TEST_TREE = `${process.pid}-${randomUUID()}`;
