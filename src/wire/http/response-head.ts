/**
 * The head of an exchange's response (status and headers), for whoever wants to know it once it
 * is chosen: the engine tells a message listener about an answer only when the wire has picked
 * the status it goes with. Until someone asks, the adapters only note the head (two fields).
 */
import type { HeadListener } from "../../engine/request-context.js";

export abstract class ResponseHead {
  private headStatus?: number;
  private headHeaders?: Readonly<Record<string, string>>;
  private headWaiting?: HeadListener[];

  /** Calls `listener` with the response's status and headers: now if they went, else when they go. */
  afterHead(listener: HeadListener): void {
    if (this.headStatus !== undefined) listener(this.headStatus, this.headHeaders!);
    else (this.headWaiting ??= []).push(listener);
  }

  /** The adapter wrote its head. */
  protected headSent(status: number, headers: Readonly<Record<string, string>>): void {
    if (this.headStatus !== undefined) return;
    this.headStatus = status;
    this.headHeaders = headers;
    const waiting = this.headWaiting;
    if (waiting === undefined) return;
    this.headWaiting = undefined;
    for (const listener of waiting) listener(status, headers);
  }
}
