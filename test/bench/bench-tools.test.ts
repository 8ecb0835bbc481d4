/**
 * The benchmark's own tools (bench/, not shipped): the fairness every ratio in `npm run bench`
 * rests on (the order sides take turns in, ratios taken per round) and the handler-cost harness
 * run end to end on the built package, so a broken bench script fails here, not in the next
 * person's benchmark run.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);

interface CommonHelpers {
  balancedOrders<T>(items: T[]): T[][];
  permutations<T>(items: T[]): T[][];
  summarizeAgainst(
    rounds: Record<string, Record<string, number>>[],
    sides: string[],
    reference: string,
    keys: string[],
    ratioKeys: string[],
  ): {
    median: Record<string, Record<string, number>>;
    ratio: Record<string, Record<string, number>>;
    ratioQuartiles: Record<string, Record<string, [number, number]>>;
  };
  verdictText(met: boolean, quartiles: [number, number], target: number, higherIsBetter: boolean): string;
}

let common: CommonHelpers;
beforeAll(async () => {
  // A plain .js module of the bench (no types): imported by URL, typed here by what the test uses.
  common = (await import(pathToFileURL(path.join(root, "bench/lib/common.js")).href)) as CommonHelpers;
});

const countBy = (keys: string[]) => keys.reduce((counts, key) => counts.set(key, (counts.get(key) ?? 0) + 1), new Map<string, number>());

describe("the order sides take turns in (a balanced Latin square)", () => {
  it.each([4, 5, 6, 7, 9])("%i sides: each side in each position, and after each other side, equally often", (n) => {
    const sides = Array.from({ length: n }, (_, i) => `s${i}`);
    const orders = common.balancedOrders(sides);
    expect(orders).toHaveLength(n % 2 === 0 ? n : 2 * n);
    for (const order of orders) expect([...order].sort()).toEqual([...sides].sort());
    for (let position = 0; position < n; position++) {
      const counts = countBy(orders.map((order) => order[position]!));
      expect(new Set(counts.values()), `position ${position}`).toEqual(new Set([orders.length / n]));
    }
    const pairs = countBy(orders.flatMap((order) => order.slice(1).map((side, i) => `${order[i]}>${side}`)));
    // Every ordered pair of two different sides, each as often as the others.
    expect(pairs.size).toBe(n * (n - 1));
    expect(new Set(pairs.values()).size).toBe(1);
  });

  it("three sides or fewer: every order", () => {
    expect(common.balancedOrders(["a", "b", "c"])).toHaveLength(6);
    expect(common.balancedOrders(["a", "b"])).toEqual([
      ["a", "b"],
      ["b", "a"],
    ]);
  });
});

describe("ratios are taken per round, then the median", () => {
  it("a round where the whole machine was slow moves both sides, not the ratio", () => {
    const rounds = [
      { bare: { cpu: 10 }, ours: { cpu: 11 } },
      { bare: { cpu: 30 }, ours: { cpu: 33 } },
      { bare: { cpu: 20 }, ours: { cpu: 22 } },
      { bare: { cpu: 10 }, ours: { cpu: 12 } },
    ];
    const summary = common.summarizeAgainst(rounds, ["bare", "ours"], "bare", ["cpu"], ["cpu"]);
    expect(summary.ratio.ours!.cpu).toBeCloseTo(1.1, 10);
    expect(summary.median.ours!.cpu).toBe(17);
    const [q1, q3] = summary.ratioQuartiles.ours!.cpu!;
    expect(q1).toBeCloseTo(1.1, 10);
    expect(q3).toBeCloseTo(1.125, 10);
    expect(summary.ratio.bare).toBeUndefined();
  });

  it("a status is borderline when the middle half of the rounds straddles the aim", () => {
    expect(common.verdictText(true, [1.05, 1.15], 1.2, false)).toBe("met");
    expect(common.verdictText(true, [1.1, 1.3], 1.2, false)).toBe("met (borderline)");
    expect(common.verdictText(false, [1.1, 1.3], 1.2, false)).toBe("NOT met (borderline)");
    expect(common.verdictText(false, [1.25, 1.4], 1.2, false)).toBe("NOT met");
    expect(common.verdictText(true, [1.1, 1.6], 1.5, true)).toBe("met (borderline)");
  });
});

describe("bench/handler-cost.js on the built package", () => {
  it("prints every side's cost per call, ours beside its bare ceiling (each answer checked on the way)", async () => {
    const { stdout } = await run(process.execPath, ["bench/handler-cost.js", "--calls=300", "--rounds=1"], { cwd: root, timeout: 30_000 });
    for (const side of ["bare", "ours-json", "ours-fn", "bare-modern", "ours-modern"]) expect(stdout).toMatch(new RegExp(`^  ${side} +best +[\\d.]+ µs`, "m"));
    expect(stdout).toMatch(/ours-fn .* over bare \(/);
    expect(stdout).toMatch(/ours-modern .* over bare-modern \(/);
  });

  it("an unknown --only side is an error naming the sides", async () => {
    const failure = await run(process.execPath, ["bench/handler-cost.js", "--only=nope"], { cwd: root, timeout: 30_000 }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain("unknown --only side(s): nope; sides: bare, ours-json, ours-fn, bare-modern, ours-modern");
  });

  it("an unknown --only part of the HTTP section is an error naming the parts (not a run that measures nothing)", async () => {
    const failure = await run(process.execPath, ["bench/http.js", "--only=load,eraz", "--no-json"], { cwd: root, timeout: 30_000 }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toContain("unknown --only part(s): eraz; parts: load, eras, setup");
  });

  it("the load generator sends a call again when the server dropped its idle keep-alive socket, and only then", async () => {
    const { createServer } = await import("node:http");
    type Session = { initialize(): Promise<Session>; call(): Promise<void>; close(): void; staleSocketRetries?: number };
    const { ModernHttpSession } = (await import(pathToFileURL(path.join(root, "bench/lib/loadgen.js")).href)) as { ModernHttpSession: new (url: string) => Session };
    const answer = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "ok" }], resultType: "complete" } });
    // Every socket's second request is dropped unread, as a server closing an idle socket does when a request is already on its way.
    const seen = new WeakMap<object, number>();
    let dropFresh = false;
    const server = createServer((req, res) => {
      const nth = (seen.get(req.socket) ?? 0) + 1;
      seen.set(req.socket, nth);
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk));
      req.on("end", () => {
        if (nth === 2 || dropFresh) return req.socket.destroy();
        res.writeHead(200, { "content-type": "application/json" }).end(answer((JSON.parse(body) as { id: number }).id));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const session = await new ModernHttpSession(`http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`).initialize();
    try {
      await session.call();
      await session.call();
      expect(session.staleSocketRetries).toBe(1);
      // A request on a new socket that fails is a real failure: not sent again.
      dropFresh = true;
      session.close();
      await expect(session.call()).rejects.toMatchObject({ code: "ECONNRESET" });
      expect(session.staleSocketRetries).toBe(1);
    } finally {
      session.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("priming runs each process of a server set hot (its count of calls, on sessions of its own) before anything is measured", async () => {
    type ServerSet = { processes: { ask(type: string): Promise<{ stats: { recordedCalls: number } }> }[]; stop(): Promise<void> };
    const { primeSet, startServerSet } = (await import(pathToFileURL(path.join(root, "bench/lib/server-set.js")).href)) as {
      primeSet(set: ServerSet, era: string, prime: { concurrency: number; count: number; ms: number }): Promise<void>;
      startServerSet(side: string, count: number): Promise<ServerSet>;
    };
    const set = await startServerSet("ours-json", 2);
    try {
      await primeSet(set, "legacy", { concurrency: 4, count: 120, ms: 20_000 });
      const recorded = await Promise.all(set.processes.map(async (server) => (await server.ask("stats")).stats.recordedCalls));
      expect(recorded).toEqual([120, 120]);
    } finally {
      await set.stop();
    }
  });

  it("the load generator's quick reading of an answer passes only the expected one", async () => {
    const { quickAnswerOk } = (await import(pathToFileURL(path.join(root, "bench/lib/loadgen.js")).href)) as { quickAnswerOk(text: string, id: number, wantResultType: boolean): boolean };
    const ok = '{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"ok"}]}}';
    expect(quickAnswerOk(ok, 12, false)).toBe(true);
    expect(quickAnswerOk(ok, 1, false)).toBe(false);
    expect(quickAnswerOk(ok, 12, true)).toBe(false);
    expect(quickAnswerOk(ok.replace("}]}}", '}],"resultType":"complete"}}'), 12, true)).toBe(true);
    expect(quickAnswerOk(ok.replace("}]}}", '}],"isError":true}}'), 12, false)).toBe(false);
    expect(quickAnswerOk('{"jsonrpc":"2.0","id":12,"error":{"code":-32602,"message":""text":"ok""}}', 12, false)).toBe(false);
    expect(quickAnswerOk(ok.replace('"ok"', '"no"'), 12, false)).toBe(false);
  });
});

describe("bench/import-cost.js on the built package", () => {
  it("measures every entry in fresh processes and prints its row, the aim's status and the ratio to aimock", async () => {
    const { stdout } = await run(process.execPath, ["bench/import-cost.js", "--rounds=1", "--no-json"], { cwd: root, timeout: 120_000 });
    for (const entry of ["bare node (nothing imported)", "mcp-testkit (dist/index.js)", "aimock (@copilotkit/aimock)", "mcp-testkit/protocol", "mcp-testkit/driver", "mcp-testkit --version"]) {
      expect(stdout).toContain(`| ${entry}`);
    }
    // Every entry imported in its one round: a number of ms and MB, not "n/a".
    expect(stdout).toMatch(/\| mcp-testkit \(dist\/index\.js\) +\| [\d.]+ ms +\| [\d.]+ ms +\| [\d.]+ MB .*\| (met|NOT met) +\|/);
    expect(stdout).toMatch(/mcp-testkit \/ aimock, import wall time: [\d.]+×/);
  });
});
