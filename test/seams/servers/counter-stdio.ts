// The counter feature served on this process's stdin/stdout (spawned by the tests with tsx).
import { mockMcp } from "../../../src/index.js";
import { counterFeature } from "./counter-feature.js";

await mockMcp({ transport: "stdio", features: [counterFeature] });
