import type { CommandName } from "./cli-arguments.js";
import { IMAGE_RETENTION_MS, imageDirectoryPattern } from "./image-directory.js";

const common = `Options:
  -C, --workdir <dir>       the run's working directory (default: the current directory)
      --plugin <name|path>  also load this tool plugin (repeatable); its default export must be a plugin.
                            A path (./x.js, /abs/x.js, or a package directory such as .) is relative
                            to the current directory, like any path you type; a package name is resolved as \`import\` would from the
                            workdir (its node_modules), then from where runbound is installed
      --caller main|plan    whose view of the tools: plan sees read tools only (default: main)
      --ask <tiers>         calls of these tiers need approval (e.g. write,exec): over MCP the client's
                            user is asked (elicitation); where no one can be asked, they are denied
      --eval-python native|pyodide|auto
                            the Python kernel of eval: native = the project's .venv/venv python, else
                            python3 on PATH; pyodide = Pyodide isolated in a child process; auto
                            (default) = native where a CPython resolves, else pyodide
      --parse-cache-mib <n> memory in MiB for the syntax trees ast_grep and ast_edit keep between
                            searches of the run (default 256; 0 turns the parse cache off)
      --vibe                let the run spawn background workers (vibe_* tools); needs at least one of
      --worker-fast <cmd>   the command line a fast worker runs (sh -c), its brief on stdin
      --worker-good <cmd>   the command line a good worker runs; RUNBOUND_WORKER_TIER,
                            RUNBOUND_CEILING, RUNBOUND_ASK and RUNBOUND_APPROVAL_FD are in its
                            environment
      --trust-project       let lsp start the project's own programs (node_modules/.bin, .venv/bin) for
                            any caller; the default trusts them for main only, not for plan
      --no-trust-project    never start programs from inside the workdir; PATH's are used instead
      --sandbox auto|required|off
                            where eval's kernels, debuggees (with their debug adapters) and vibe
                            workers run: auto (default) = a bubblewrap sandbox (the workdir, the
                            toolchain read-only, a private /tmp and HOME, no secrets, no network)
                            where one works here, else the host; required = a sandbox or no run;
                            off = the host. status says which, and why
      --pass-env <NAME>     also pass this variable into the sandbox (repeatable)
      --allow-network       let sandboxed kernels and debuggees use the network (e.g. for %pip install)
      --sandbox-servers     run language servers and project checkers in the sandbox too (off by
                            default: a trusted project's own server is its code)
      --worker-env <NAME>   pass this variable to sandboxed vibe workers (their model's API key;
                            repeatable); workers have the network
      --worker-read <path>  let sandboxed vibe workers read this host path (an agent's installation or
                            config; repeatable); runbound's own installation is always readable
  -h, --help                show help
  -v, --version             show the version

Run as a worker, runbound offers no tool above the tier in RUNBOUND_CEILING (read, write, exec) and
asks its caller before calls of the tiers in RUNBOUND_ASK (e.g. write,exec, or none), over the
approval channel in RUNBOUND_APPROVAL_FD; without that channel it denies them.

Exit codes: 0 ok; 1 the tool answered an error (call), also for an unknown tool or an input the tool
rejects, such as a missing field; 2 bad command line, nothing was called: an unknown command, option
or argument, no tool name, an input that is not a JSON object; 3 the run could not be opened. A closed
stdout (| head -1) ends quietly with the code of what was done (call: the tool's 0 or 1).`;

// Built when asked: the call text names the temporary directory, read from the environment.
const texts = (): Record<CommandName | "main", string> => ({
  main: `runbound — agent tools bound to live resources, from the shell or over MCP.

Usage: runbound <command> [options]

Commands:
  status                  every known tool: registered or not and why; each resource's availability
  tools                   the tools the caller sees (--format text|json|openai|anthropic)
  call <tool> '<json>'    call one tool and print its result ('-' reads the JSON from stdin)
  session                 JSON lines on stdin/stdout; one run kept alive across calls
  mcp                     serve one run over MCP on stdio; the run ends with the connection

${common}`,
  status: `Usage: runbound status [--format text|json] [options]

Lists every tool of every loaded plugin, whether the caller sees it, and why not (a missing resource
or a tier above the caller's ceiling), then each attached resource's own availability detail.

${common}`,
  tools: `Usage: runbound tools [--format text|json|openai|anthropic] [options]

Prints the tools the caller sees. json: name, description, tier, input JSON Schema. openai: Responses
API function tools with strict schemas. anthropic: Messages API tools with input_schema.

${common}`,
  call: `Usage: runbound call <tool> ['<json>' | -] [options]

Calls one tool with a JSON object input (default {}; '-' reads it from stdin) and prints the text of
the result. --format json prints the raw result. Images are saved to files and their paths printed,
in a new directory \`${imageDirectoryPattern()}\` per call; a later call that saves images
removes those older than ${IMAGE_RETENTION_MS / 3_600_000} hours.

Example: runbound call read '{"path":"README.md","limit":20}'

${common}`,
  session: `Usage: runbound session [options]

Reads one JSON request per line on stdin and writes one JSON response per line on stdout, keeping one
run (and its resources) alive until stdin ends. Requests are answered one at a time, in order.
  request:  {"id": 1, "tool": "read", "input": {"path": "README.md"}}   ("input" defaults to {})
            {"id": 2, "command": "tools"}
  response: {"id": 1, "result": {"content": [...], "isError": false}}
            {"id": 2, "tools": [{"name": ..., "description": ..., "tier": ..., "inputSchema": {...}}]}
  a bad request: {"id": 3, "error": "..."}; a line that is not JSON: {"id": null, "error": "..."}
The tools' entries are those of \`runbound tools --format json\` (JSON Schema of each input).

${common}`,
  mcp: `Usage: runbound mcp [options]

Serves one run over MCP on stdin/stdout (JSON-RPC). tools/list is the caller's visible set;
tools/call goes through the run's dispatch. The run and its resources end when the client disconnects.

Add it to an MCP client, e.g.: {"command": "npx", "args": ["runbound", "mcp", "--workdir", "/path/to/project"]}

${common}`,
});

/** Help for a command, or the overview. */
export function helpText(command: CommandName | undefined): string {
  return texts()[command ?? "main"];
}
