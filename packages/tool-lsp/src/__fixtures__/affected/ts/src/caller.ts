import { label } from "./util.js";

export const first = label("first");
export const second = label("second");
