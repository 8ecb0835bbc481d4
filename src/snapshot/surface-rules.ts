/**
 * The rules for the parts of a surface that are not JSON Schemas: capabilities (and their
 * extensions), a tool's `execution` (task support), and a prompt's arguments.
 */
import { canonical } from "./schema-diff.js";
import { changeOf, unionKeys, type Push } from "./changes.js";

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {});

/** Members of `capabilities` whose keys are names of their own (an extension's id), each one a capability. */
const NAMED_GROUPS = new Set(["extensions", "experimental"]);

/**
 * A capability lost breaks the clients that use it (a flag such as `resources.subscribe` too); one
 * gained is compatible; a setting inside one that changed (an extension's options) is informational.
 */
export function compareCapabilities(before: Json, after: Json, push: Push): void {
  for (const name of unionKeys(before, after)) {
    const path = ["capabilities", name];
    if (NAMED_GROUPS.has(name)) {
      const was = asObject(before[name]);
      const now = asObject(after[name]);
      for (const id of unionKeys(was, now)) compareOne(`${name === "extensions" ? "extension" : "experimental capability"} "${id}"`, was[id], now[id], [...path, id], push);
      continue;
    }
    compareOne(`capability "${name}"`, before[name], after[name], path, push);
  }
}

function compareOne(label: string, was: unknown, now: unknown, path: string[], push: Push): void {
  if (canonical(was) === canonical(now)) return;
  if (now === undefined) {
    push({ kind: "removed", class: "breaking", path, message: `${label} lost: clients that use it fail`, before: was });
    return;
  }
  if (was === undefined) {
    push({ kind: "added", class: "compatible", path, message: `${label} added`, after: now });
    return;
  }
  const before = asObject(was);
  const after = asObject(now);
  for (const key of unionKeys(before, after)) {
    if (canonical(before[key]) === canonical(after[key])) continue;
    // A flag (`listChanged`, `subscribe`) that was on and is not any more is a lost capability.
    if (before[key] === true && after[key] !== true)
      push({
        kind: after[key] === undefined ? "removed" : "changed",
        class: "breaking",
        path: [...path, key],
        message: `${label}: ${key} lost: clients that rely on it fail`,
        before: true,
        after: after[key],
      });
    else if (after[key] === true && before[key] !== true) push({ kind: "added", class: "compatible", path: [...path, key], message: `${label}: ${key} added`, before: before[key], after: true });
    else push(changeOf([...path, key], "informational", `${label}: ${key}`, before[key], after[key]));
  }
}

/** A tool's task support, from least to most a client must do: without a task, with one or not, with one only. */
const TASK_SUPPORT = ["forbidden", "optional", "required"];

/**
 * `execution.taskSupport` (2025-11-25 tasks): "required" refuses a call made without a task, and
 * going back to "forbidden" refuses a call made with one; either change breaks a client that
 * worked. Loosening ("required" → "optional") is compatible.
 */
export function compareExecution(label: string, was: unknown, now: unknown, path: string[], push: Push): void {
  const before = asObject(was);
  const after = asObject(now);
  const support = (value: unknown) => (typeof value === "string" && TASK_SUPPORT.includes(value) ? value : "forbidden");
  const from = support(before.taskSupport);
  const to = support(after.taskSupport);
  if (from !== to) {
    const breaks = to === "required" || (from !== "forbidden" && to === "forbidden");
    const why = to === "required" ? "calls made without a task are refused" : breaks ? "calls made with a task are refused" : "calls that worked still work";
    push({
      kind: "changed",
      class: breaks ? "breaking" : "compatible",
      path: [...path, "taskSupport"],
      message: `${label} task support ${from} → ${to}: ${why}`,
      before: before.taskSupport,
      after: after.taskSupport,
    });
  }
  for (const key of unionKeys(before, after)) {
    if (key === "taskSupport" || canonical(before[key]) === canonical(after[key])) continue;
    push(changeOf([...path, key], "informational", `${label} execution ${key}`, before[key], after[key]));
  }
}

/**
 * A prompt's arguments are what it accepts: one removed or newly required refuses a call that
 * worked (breaking); a new optional one, or one no longer required, is compatible.
 */
export function comparePromptArguments(label: string, was: unknown, now: unknown, path: string[], push: Push): void {
  const byName = (value: unknown) => new Map((Array.isArray(value) ? value : []).map((arg) => [String(asObject(arg).name), asObject(arg)]));
  const before = byName(was);
  const after = byName(now);
  for (const [name, arg] of before) {
    const at = [...path, name];
    const other = after.get(name);
    if (other === undefined) {
      push({ kind: "removed", class: "breaking", path: at, message: `${label} argument "${name}" removed: calls that pass it may be refused`, before: arg });
      continue;
    }
    const wasRequired = arg.required === true;
    const isRequired = other.required === true;
    if (wasRequired !== isRequired) {
      push({
        kind: "changed",
        class: isRequired ? "breaking" : "compatible",
        path: [...at, "required"],
        message: `${label} argument "${name}" ${isRequired ? "became required: calls without it are refused" : "is no longer required"}`,
        before: arg.required,
        after: other.required,
      });
    }
    for (const key of unionKeys(arg, other)) {
      if (key === "name" || key === "required" || canonical(arg[key]) === canonical(other[key])) continue;
      push(changeOf([...at, key], "informational", `${label} argument "${name}" ${key}`, arg[key], other[key]));
    }
  }
  for (const [name, arg] of after) {
    if (before.has(name)) continue;
    const required = arg.required === true;
    push({
      kind: "added",
      class: required ? "breaking" : "compatible",
      path: [...path, name],
      message: `${label} ${required ? `new required argument "${name}": calls without it are refused` : `new optional argument "${name}"`}`,
      after: arg,
    });
  }
}
