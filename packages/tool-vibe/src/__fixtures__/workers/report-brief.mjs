// A worker that answers with what it was given: its brief (stdin) and the worker variables.
let brief = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => (brief += chunk));
process.stdin.on("end", () => {
  const env = process.env;
  process.stdout.write(
    JSON.stringify({
      brief,
      tier: env.RUNBOUND_WORKER_TIER,
      ceiling: env.RUNBOUND_CEILING,
      ask: env.RUNBOUND_ASK,
      id: env.RUNBOUND_WORKER_ID,
      run: env.RUNBOUND_WORKER_RUN,
      cwd: process.cwd(),
    }),
  );
});
