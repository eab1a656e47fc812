import { total } from "./total.js";

console.log(total(["1", 2]));
console.log(missingName);
