/** A server's surface as a snapshot file, and the classed diff of two surfaces: `snapshotServer(driver)`, `diffSurfaces(a, b)`. */
export { snapshotServer, type SnapshotDriver } from "./snapshot-server.js";
export { diffSurfaces, worstClass, classOf, type SurfaceDiff, type DiffSurfacesOptions, type ChangeClass, type ChangeKind, type SurfaceChange } from "./surface-diff.js";
export { normalizeSurface, surfaceText, SURFACE_FORMAT, type ServerSurface } from "./surface.js";
export { pathText } from "./change-paths.js";
export type { SchemaDirection, SchemaEffect } from "./schema-diff.js";
export { formatSurfaceDiff, summaryLine, type DiffFormat, type DiffReportOptions } from "./diff-report.js";
export { readSurface, isSurfaceFile } from "./surface-format.js";
