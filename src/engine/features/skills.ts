/**
 * The Skills extension (SEP-2640): `skills/list`, `skills/get` and `resources/directory/read`,
 * declared under `capabilities.extensions` when the mock has skills. The skill files are
 * resources of the catalog, so `resources/list` and `resources/read` serve them as any other.
 */
import { DIRECTORY_READ, SKILLS_EXTENSION, SKILLS_GET, SKILLS_LIST } from "../../protocol/skills.js";
import { versionHas } from "../../protocol/versions.js";
import { getSkill, listSkills, readDirectory } from "../skills/skill-methods.js";
import type { EngineFeature } from "./feature.js";

export const skillsFeature: EngineFeature = {
  name: "skills",
  methods: [
    { method: SKILLS_LIST, handler: listSkills, requires: ["skills"] },
    { method: SKILLS_GET, handler: getSkill, requires: ["skills"] },
    { method: DIRECTORY_READ, handler: readDirectory, requires: ["skills"] },
  ],
  // A mock without skills declares nothing, so a client does not look for them.
  capabilities: (version, catalog) =>
    catalog !== undefined && catalog.skills.size > 0 && versionHas(version, "skills") ? { resources: {}, extensions: { [SKILLS_EXTENSION]: { directoryRead: true } } } : undefined,
};
