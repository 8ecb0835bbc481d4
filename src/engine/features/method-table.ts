/**
 * The engine's tables, built once from its list of features: which handler serves a method (and
 * which revisions have it), which handler acts on a notification, and the capabilities a
 * revision declares.
 */
import { McpTestkitError } from "../../errors.js";
import { featuresOfMethod } from "../../protocol/methods.js";
import type { Feature } from "../../protocol/versions.js";
import type { Catalog } from "../catalog.js";
import type { RequestHandler } from "../methods/handler-input.js";
import type { EngineFeature, NotificationSpec } from "./feature.js";

export interface MethodEntry {
  readonly handler: RequestHandler;
  readonly requires: readonly Feature[];
  /** The feature that serves it. */
  readonly feature: string;
}

export class MethodTable {
  readonly methods = new Map<string, MethodEntry>();
  readonly notifications = new Map<string, NotificationSpec["handle"]>();
  private readonly capabilitySources: Array<NonNullable<EngineFeature["capabilities"]>> = [];

  constructor(features: readonly EngineFeature[]) {
    const notificationOwners = new Map<string, string>();
    for (const feature of features) {
      for (const spec of feature.methods ?? []) {
        const taken = this.methods.get(spec.method);
        if (taken !== undefined) throw twoOwners("method", spec.method, taken.feature, feature.name);
        this.methods.set(spec.method, { handler: spec.handler, requires: spec.requires ?? featuresOfMethod(spec.method), feature: feature.name });
      }
      for (const spec of feature.notifications ?? []) {
        const owner = notificationOwners.get(spec.method);
        if (owner !== undefined) throw twoOwners("notification", spec.method, owner, feature.name);
        notificationOwners.set(spec.method, feature.name);
        this.notifications.set(spec.method, spec.handle);
      }
      if (feature.capabilities !== undefined) this.capabilitySources.push(feature.capabilities);
    }
  }

  /** Every method served, in the order the features declared them. */
  get methodNames(): string[] {
    return [...this.methods.keys()];
  }

  /**
   * The capabilities declared at `version`: each feature's, merged one level deep, so two features
   * may both add to `experimental` or `extensions`.
   */
  capabilitiesFor(version: string, catalog?: Catalog): Record<string, unknown> {
    const merged: Record<string, unknown> = {};
    for (const source of this.capabilitySources) {
      const added = source(version, catalog);
      if (added === undefined) continue;
      for (const [key, value] of Object.entries(added)) {
        const before = merged[key];
        merged[key] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
      }
    }
    return merged;
  }
}

function twoOwners(kind: string, method: string, first: string, second: string): McpTestkitError {
  return new McpTestkitError(`Two features serve the ${kind} ${method}: "${first}" and "${second}". Give it to one of them, or put a handler in front of it with server.use("${method}", handler).`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
