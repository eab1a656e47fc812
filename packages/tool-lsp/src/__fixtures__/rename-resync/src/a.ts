import { greet } from "./greet.js";

export const first = greet("a");
