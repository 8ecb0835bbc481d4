/**
 * One page of a list method (`tools/list`, `resources/list`, `resources/templates/list`,
 * `prompts/list`): the catalog's entries, then those of other sources (fakes; a registered one
 * wins), paged, each shaped for the request's protocol version, under the result's `key`.
 */
import type { Outcome } from "../outcome.js";
import { paginate } from "../pagination.js";
import type { RequestContext } from "../request-context.js";
import { mergeListings } from "../request-sources.js";
import { shapeForVersion } from "../version-shape.js";
import { ok, type HandlerInput } from "./handler-input.js";

type Listing = Record<string, unknown>;

export interface ListSpec {
  /** The result field holding the page (`tools`, `resources`, ...). */
  readonly key: string;
  /** The fields each protocol version may carry (see version-shape.ts). */
  readonly fields: Parameters<typeof shapeForVersion>[1];
  /** Other sources' entries and how an entry is named, when the list has any. */
  readonly sources?: ReadonlyArray<(context: RequestContext) => readonly object[]>;
  readonly name?: (entry: object) => unknown;
}

export function listPage(input: HandlerInput, catalogEntries: Iterable<{ listing: Listing }>, spec: ListSpec): Outcome {
  const own: Listing[] = [];
  for (const entry of catalogEntries) own.push(entry.listing);
  const listings = spec.sources === undefined || spec.name === undefined ? own : mergeListings(own, spec.sources, input.context, spec.name);
  const { page, nextCursor } = paginate(listings, input.params.cursor, input.state.pageSize);
  const version = input.context.protocolVersion;
  const items = page.map((listing) => shapeForVersion(listing, spec.fields, version));
  return ok(input, nextCursor === undefined ? { [spec.key]: items } : { [spec.key]: items, nextCursor });
}
