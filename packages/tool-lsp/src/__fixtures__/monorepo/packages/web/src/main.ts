import { greet, Square, type Shape } from "./greet.js";

const 名前 = "😀 世界"; const message = greet(名前);
const shape: Shape = new Square(2);
export const report = [message, shape.area(), greet("again")];
