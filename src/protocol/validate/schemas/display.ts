/** `title` and `icons`: the display fields tools, resources, prompts and implementations gained over time. */
import { z } from "zod";
import { uriString, type Schema } from "./combinators.js";
import type { SchemaKit } from "./kit.js";

const icon = z.looseObject({
  src: uriString,
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(["light", "dark"]).optional(),
});

export function displayFields(kit: SchemaKit): { title: Schema; icons: Schema } {
  return {
    title: kit.since("titles", z.string()).optional(),
    icons: kit.since("icons", z.array(icon)).optional(),
  };
}
