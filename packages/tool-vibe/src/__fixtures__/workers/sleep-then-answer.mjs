// A worker that says it started, stays busy for argv[2] ms (default: forever), then answers "done".
// With argv[3] = "silent" it writes nothing at all until it answers.
const ms = Number(process.argv[2] ?? "0");
const silent = process.argv[3] === "silent";
if (!silent) process.stdout.write(`started ${process.pid}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  if (ms > 0) setTimeout(() => process.stdout.write("done\n"), ms);
  else setInterval(() => undefined, 60_000);
});
