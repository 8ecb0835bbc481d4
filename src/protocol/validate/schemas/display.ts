/** `title` and `icons`: the display fields tools, resources, prompts and implementations gained over time. */
import { zod } from "../../../util/zod-on-demand.js";
import { stringFormats, type Schema } from "./combinators.js";
import type { SchemaKit } from "./kit.js";

export function displayFields(kit: SchemaKit): { title: Schema; icons: Schema } {
  const z = zod();
  const { uriString } = stringFormats();
  const icon = z.looseObject({
    src: uriString,
    mimeType: z.string().optional(),
    sizes: z.array(z.string()).optional(),
    theme: z.enum(["light", "dark"]).optional(),
  });
  return {
    title: kit.since("titles", z.string()).optional(),
    icons: kit.since("icons", z.array(icon)).optional(),
  };
}
