// Reads the "Diagnostics after this write" block that tool-lsp appends to a writer's answer (format:
// packages/tool-lsp/src/diagnostics-after-write.ts) back into data: the rows it says were introduced,
// the counts it says were resolved per file, and the lines saying a file was not (fully) checked.
// Lines it does not know are kept, so a format change shows up in the results rather than vanishing.
const header = "Diagnostics after this write";
const row = /^ {2}(\S.*?):(\d+): (error|warning|info|hint)(?: (.+?))?: (.*?)(?: \(now \d+, was \d+\))?$/;
const introducedHeader = /^(\S.*?): .*(?:introduced by this write|the first check of this file).*:$/;
const resolvedHeader = /^(\S.*?): resolved (\d+) diagnostics?.*:$/;
const resolvedRow = /^ {2}(error|warning|info|hint)(?: (\S+))?: (.*?)(?: \(×(\d+)\))?$/;
// Past the files shown in full, the answer names the rest with their counts (the bound: at most
// 10 files in full): "3 more files affected (…): `a.go` (1 new), `b.go` (2 new, 1 resolved); ask …".
const namedOnlyLine = /^\d+ more files? affected\b/;
const namedOnlyFile = /`([^`]+)` \((\d+) new(?:, (\d+) resolved)?\)|`([^`]+)` \((\d+) resolved\)/g;

/** The diagnostics an answer reports. `text` is the whole tool result. */
export function parseAnswer(text) {
  const answer = {
    present: false,
    introduced: [],
    resolved: new Map(),
    namedOnly: new Map(),
    notCheckedYet: [],
    notChecked: [],
    couldNotCheck: [],
    other: [],
  };
  const start = text.indexOf(header);
  if (start === -1) return answer;
  answer.present = true;
  let section;
  for (const line of text.slice(start).split("\n").slice(1)) {
    let match;
    if (namedOnlyLine.test(line)) {
      for (const named of line.matchAll(namedOnlyFile)) {
        const file = named[1] ?? named[4];
        const introduced = named[1] === undefined ? 0 : Number(named[2]);
        const resolved = named[1] === undefined ? Number(named[5]) : Number(named[3] ?? 0);
        answer.namedOnly.set(file, { introduced, resolved });
        if (resolved > 0) answer.resolved.set(file, (answer.resolved.get(file) ?? 0) + resolved);
      }
      continue;
    }
    if ((match = resolvedHeader.exec(line)) !== null) {
      section = { kind: "resolved", file: match[1] };
      answer.resolved.set(match[1], (answer.resolved.get(match[1]) ?? 0) + Number(match[2]));
    } else if ((match = introducedHeader.exec(line)) !== null) {
      section = { kind: "introduced", file: match[1] };
    } else if (section?.kind === "introduced" && (match = row.exec(line)) !== null) {
      answer.introduced.push({
        file: match[1],
        line: Number(match[2]),
        severity: match[3],
        code: match[4] ?? "",
        message: match[5],
      });
    } else if (section?.kind === "resolved" && resolvedRow.test(line)) {
      continue;
    } else if (/not checked yet/i.test(line)) {
      answer.notCheckedYet.push(line);
    } else if (/could not be checked/i.test(line)) {
      answer.couldNotCheck.push(line);
    } else if (/not checked/i.test(line)) {
      answer.notChecked.push(line);
    } else if (line.trim() !== "" && !/no new errors or warnings/.test(line)) {
      answer.other.push(line);
    }
  }
  return answer;
}
