import { first } from "./caller.js";

export const length: number = first.length;
