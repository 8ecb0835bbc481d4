/** The recorder's journal is the package's one ring buffer (kept under its old name for its importers). */
export { RingBuffer as BoundedJournal } from "../util/ring-buffer.js";
