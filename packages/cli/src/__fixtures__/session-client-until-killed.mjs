// A `runbound session` client, run as its own process so a test can SIGKILL it mid-call. It starts the
// command given as JSON in argv[2] ({ command, args }), sends the JSON lines of `requests` and keeps its
// end of stdin open; it reports on stdout, one JSON line each: {"event":"server","pid"} and
// {"event":"response","response"} for every line the session answers.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

const { command, args, requests } = JSON.parse(process.argv[2]);
const report = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
const session = spawn(command, args, { stdio: ["pipe", "pipe", "inherit"] });
report({ event: "server", pid: session.pid });
for (const request of requests) session.stdin.write(`${JSON.stringify(request)}\n`);
for await (const line of createInterface({ input: session.stdout })) report({ event: "response", response: JSON.parse(line) });
