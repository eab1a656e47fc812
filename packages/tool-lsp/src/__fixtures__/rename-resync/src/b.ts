import { greet } from "./greet.js";

export const second = greet("b");
export const third = [greet("c")].join();
