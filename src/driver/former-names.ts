/**
 * The driver's former names for what is now on `driver.process` and `driver.traffic`, kept for one
 * release so that code written against them goes on working (and its editor says what to use).
 */
import type { TrafficRecorder } from "../inspect/recorder.js";
import type { TrafficProblem, TrafficRecord } from "../inspect/types.js";
import type { ProtocolError } from "./errors.js";
import type { ServerProcess } from "./server-process.js";
import type { DriverTraffic } from "./traffic.js";

export abstract class DriverFormerNames {
  abstract readonly process: ServerProcess;
  abstract readonly traffic: DriverTraffic;

  /** @deprecated use `driver.process.waitForExit()` */
  waitForExit(): Promise<number> {
    return this.process.waitForExit();
  }
  /** @deprecated use `driver.process.kill(signal)` */
  kill(signal: NodeJS.Signals = "SIGKILL"): void {
    this.process.kill(signal);
  }
  /** @deprecated use `driver.process.pid` */
  get pid(): number | undefined {
    return this.process.pid;
  }
  /** @deprecated use `driver.process.exitCode` */
  get exitCode(): number | null | undefined {
    return this.process.exitCode;
  }
  /** @deprecated use `driver.process.exitSignal` */
  get exitSignal(): NodeJS.Signals | null | undefined {
    return this.process.exitSignal;
  }
  /** @deprecated use `driver.process.stderr` */
  get stderr(): string[] {
    return this.process.stderr;
  }
  /** @deprecated use `driver.process.stdout` */
  get stdout(): string[] {
    return this.process.stdout;
  }
  /** @deprecated use `driver.traffic.recorder` */
  get recorder(): TrafficRecorder {
    return this.traffic.recorder;
  }
  /** @deprecated use `driver.traffic.messages` */
  get messages(): TrafficRecord[] {
    return this.traffic.messages;
  }
  /** @deprecated use `driver.traffic.problems` */
  get problems(): TrafficProblem[] {
    return this.traffic.problems;
  }
  /** @deprecated use `driver.traffic.protocolErrors` */
  get protocolErrors(): ProtocolError[] {
    return this.traffic.protocolErrors;
  }
  /** @deprecated use `driver.traffic.protocolErrorCount` */
  get protocolErrorCount(): number {
    return this.traffic.protocolErrorCount;
  }
  /** @deprecated use `driver.traffic.assertNoProtocolError()` */
  assertNoProtocolError(): void {
    this.traffic.assertNoProtocolError();
  }
}
