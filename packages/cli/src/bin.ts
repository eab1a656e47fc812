#!/usr/bin/env node
import { main } from "./main.js";

const code = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
// Exit explicitly: a resource's stray handle must not keep a finished command alive.
process.exit(code);
