// The scripted mutations: found in the project's code by the shapes of agreement-syntax.mjs rather
// than written per line, so they follow the project's code and are the same on every run (files and
// candidates are taken in sorted order). Each is one `edit` of one line (with lines before it only as
// context when the line is not unique), reverted by the opposite `edit`.
import { readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { largeTypeScriptFile } from "./agreement-large-file.mjs";
import { SYNTAX } from "./agreement-syntax.mjs";

const occurrences = (text, needle) => text.split(needle).length - 1;
/** A line that is a whole statement: brackets balanced, not continued on the next line. */
const whole = (line) =>
  ["()", "[]", "{}"].every(([open, close]) => occurrences(line, open) === occurrences(line, close)) &&
  !/[,\\([{+\-*/=&|]$/.test(line.trimEnd());

/** old/new strings for replacing line `index` of `text` with `replacement`, unique both ways. */
function uniqueEdit(text, index, replacement) {
  const lines = text.split("\n");
  for (let context = 0; context <= index; context++) {
    const before = lines.slice(index - context, index);
    const oldString = [...before, lines[index]].join("\n");
    const newString = [...before, replacement].join("\n");
    if (occurrences(text, oldString) !== 1) continue;
    if (occurrences(text.split(oldString).join(newString), newString) === 1)
      return { old_string: oldString, new_string: newString };
  }
  return undefined;
}

/** Files other than `file` that use `name` the way code in another module must (imported, or qualified). */
function userFiles(language, texts, file, name, pattern) {
  const syntax = SYNTAX[language];
  const packageName = language === "go" ? /^package (\w+)/m.exec(texts.get(file))?.[1] : undefined;
  const moduleName = basename(file).replace(/\.py$/, "");
  const users = [];
  for (const [other, text] of texts) {
    if (other === file || !pattern.test(text)) continue;
    if (
      language === "ts" &&
      !new RegExp(`import\\s*(?:type\\s*)?\\{[^}]*(?<![\\w$])${name}(?![\\w$])[^}]*\\}\\s*from`).test(text)
    )
      continue;
    if (
      language === "py" &&
      !new RegExp(`^\\s*(?:from .* )?import .*\\b${name}\\b|\\b${moduleName}\\.${name}\\b`, "m").test(text)
    )
      continue;
    if (language === "go") {
      const samePackage = dirname(other) === dirname(file);
      const qualified = new RegExp(`\\b${packageName}\\.${name}\\b`).test(text);
      if (!samePackage && !qualified) continue;
      users.push({ file: other, otherPackage: !samePackage, test: syntax.isTest(other) });
      continue;
    }
    users.push({ file: other, otherPackage: true, test: syntax.isTest(other) });
  }
  return users;
}

/** Every single-line function declaration of the project, with its users in other files. */
function declarations(language, texts) {
  const syntax = SYNTAX[language];
  const found = [];
  for (const [file, text] of texts) {
    if (syntax.isTest(file) || file === largeTypeScriptFile.path) continue;
    text.split("\n").forEach((line, index) => {
      const match = syntax.func.exec(line);
      if (match === null) return;
      const [, name, generics, params, returnType] = match;
      // An overloaded TypeScript function would break on its own; Go `init`-like names have no users.
      if (language === "ts" && occurrences(text, `function ${name}(`) + occurrences(text, `function ${name}<`) !== 1)
        return;
      const parameters = params.trim() === "" ? [] : params.split(", ");
      const users = userFiles(language, texts, file, name, syntax.calls(name));
      found.push({ file, index, line, name, generics, parameters, returnType: returnType?.trim(), users });
    });
  }
  return found;
}

/** Plan the mutations of one project (at most `limit`), each with its forward and reverse edit. */
export function planMutations(language, workdir, files, limit) {
  const syntax = SYNTAX[language];
  const texts = new Map(files.map((file) => [file, readFileSync(join(workdir, file), "utf8")]));
  const all = declarations(language, texts);
  const used = new Set();
  const acrossPackages = (declaration) => declaration.users.some((user) => user.otherPackage && !user.test);
  const free = (declaration) => !used.has(declaration.file) && acrossPackages(declaration);
  const plain = (declaration) => declaration.parameters.every(syntax.plainParameter);
  const mutations = [];
  const add = (kind, file, index, replacement, what, extra = {}) => {
    if (file === undefined) return;
    const edit = uniqueEdit(texts.get(file), index, replacement);
    if (edit === undefined) return;
    used.add(file);
    mutations.push({
      id: `${language}-${mutations.length + 1}-${kind}`,
      kind,
      file,
      line: index + 1,
      what,
      ...edit,
      control: kind === "control",
      large: file === largeTypeScriptFile.path,
      ...extra,
    });
  };
  const signature = (declaration, parameters, returnType = declaration.returnType) => {
    const { line, name, generics = "" } = declaration;
    const head = line.slice(0, line.indexOf(`${name}${generics}(`) + name.length + generics.length);
    if (language === "py")
      return `${head}(${parameters.join(", ")})${returnType === undefined ? "" : ` -> ${returnType}`}:`;
    if (language === "ts")
      return `${head}(${parameters.join(", ")})${returnType === undefined ? "" : `: ${returnType}`} {`;
    return `${head}(${parameters.join(", ")})${returnType === "" || returnType === undefined ? "" : ` ${returnType}`} {`;
  };
  const userCount = (declaration) => declaration.users.length;
  const describe = (declaration) =>
    `\`${declaration.name}\` (${declaration.file}:${declaration.index + 1}), used in ${userCount(declaration)} other files`;

  const few = all.find((declaration) => free(declaration) && plain(declaration) && userCount(declaration) <= 4);
  if (few)
    add(
      "add-parameter",
      few.file,
      few.index,
      signature(few, [...few.parameters, syntax.extraParameter]),
      `add a required parameter to ${describe(few)}`,
    );

  const typed = all.find(
    (declaration) =>
      free(declaration) && declaration.parameters.length > 0 && syntax.typedParameter.test(declaration.parameters[0]),
  );
  if (typed) {
    const [, parameterName, type] = syntax.typedParameter.exec(typed.parameters[0]);
    const retyped =
      language === "go"
        ? `${parameterName} ${syntax.simpleType[type]}`
        : `${parameterName}: ${syntax.simpleType[type]}`;
    add(
      "parameter-type",
      typed.file,
      typed.index,
      signature(typed, [retyped, ...typed.parameters.slice(1)]),
      `change the first parameter's type of ${describe(typed)} from ${type} to ${syntax.simpleType[type]}`,
    );
  }

  const removable = findRemovable(language, texts, used);
  if (removable)
    add(
      "remove-export",
      removable.file,
      removable.index,
      syntax.unexport(removable.line),
      `remove the export \`${removable.name}\` (${removable.file}:${removable.index + 1}), used in ${removable.users} other files`,
    );

  const controlTarget = all.find((declaration) => free(declaration) && userCount(declaration) >= 2);
  if (controlTarget)
    add(
      "control",
      controlTarget.file,
      controlTarget.index,
      `${controlTarget.line}${syntax.comment}`,
      `add a comment to the declaration of ${describe(controlTarget)}`,
    );

  const many = all
    .filter(
      (declaration) =>
        free(declaration) && plain(declaration) && userCount(declaration) >= 5 && userCount(declaration) <= 25,
    )
    .sort((a, b) => userCount(b) - userCount(a))[0];
  if (many)
    add(
      "add-parameter",
      many.file,
      many.index,
      signature(many, [...many.parameters, syntax.extraParameter]),
      `add a required parameter to ${describe(many)}`,
    );

  const returning = all.find(
    (declaration) =>
      free(declaration) &&
      declaration.returnType !== undefined &&
      /^[\w.[\]*|<> ]+$/.test(declaration.returnType) &&
      declaration.returnType !== "",
  );
  if (returning) {
    const to = syntax.returnTypeTo(returning.returnType);
    add(
      "return-type",
      returning.file,
      returning.index,
      signature(returning, returning.parameters, to),
      `change the return type of ${describe(returning)} from ${returning.returnType} to ${to}`,
    );
  }

  const renamed = findType(language, texts, used);
  if (renamed)
    add(
      "rename",
      renamed.file,
      renamed.index,
      renamed.line.replace(new RegExp(`\\b${renamed.name}\\b`), `${renamed.name}BenchRenamed`),
      `rename the exported type \`${renamed.name}\` (${renamed.file}:${renamed.index + 1}) without its ${renamed.users} other files' uses`,
    );

  for (const [nth, position] of [
    [1, 0.5],
    [2, 0.25],
  ]) {
    const broken = findReturn(language, texts, used, position);
    if (broken)
      add(
        "break-own",
        broken.file,
        broken.index,
        `${broken.indent}return ${syntax.undefinedName}${language === "ts" ? ";" : ""}`,
        `break the file's own code (#${nth}): \`return ${syntax.undefinedName}\` at ${broken.file}:${broken.index + 1}`,
      );
    if (nth === 1) {
      const second = all.find((declaration) => !used.has(declaration.file) && userCount(declaration) >= 1);
      if (second)
        add(
          "control",
          second.file,
          second.index,
          `${second.line}${syntax.comment}`,
          `add a comment to the declaration of ${describe(second)}`,
        );
    }
  }

  if (language === "ts" && texts.has(largeTypeScriptFile.path)) {
    const lines = texts.get(largeTypeScriptFile.path).split("\n");
    const at = (name) => lines.indexOf(lines.find((line) => line.startsWith(`export function ${name}(`)));
    const lineCount = lines.at(-1) === "" ? lines.length - 1 : lines.length;
    // A wrong declared type (rxjs's Observable takes any property access without complaint, so a
    // missing member would not do).
    const breakAt = at("pipeline300") + 1;
    add(
      "break-own",
      largeTypeScriptFile.path,
      breakAt,
      lines[breakAt].replace("const start: Observable<number>", "const start: Observable<boolean>"),
      `break the ${lineCount}-line file's own code: \`Observable<boolean>\` at line ${breakAt + 1}`,
    );
    const commentAt = at("pipeline450");
    add(
      "control",
      largeTypeScriptFile.path,
      commentAt,
      `${lines[commentAt]}${syntax.comment}`,
      `add a comment in the ${lineCount}-line file (line ${commentAt + 1})`,
    );
  }
  return mutations.slice(0, limit);
}

/** A module-level name used in other files whose one-line definition can go. */
function findRemovable(language, texts, used) {
  const syntax = SYNTAX[language];
  for (const [file, text] of texts) {
    if (used.has(file) || syntax.isTest(file) || file === largeTypeScriptFile.path) continue;
    const lines = text.split("\n");
    for (const [index, line] of lines.entries()) {
      const name = syntax.removable.exec(line)?.[1];
      if (
        name === undefined ||
        name.startsWith("_") ||
        (name === name.toUpperCase() && language !== "py") ||
        (language === "py" && !whole(line))
      )
        continue;
      if (language === "ts" && occurrences(text, `function ${name}(`) + occurrences(text, `function ${name}<`) !== 1)
        continue;
      // Go: the lowercase name must be free, or the un-exported function would clash instead.
      if (language === "go" && new RegExp(`\\b${name[0].toLowerCase()}${name.slice(1)}\\b`).test(text)) continue;
      const users = userFiles(language, texts, file, name, syntax.uses(name)).filter(
        (user) => user.otherPackage && !user.test,
      );
      if (users.length > 0 && users.length <= 10) return { file, index, line, name, users: users.length };
    }
  }
  return undefined;
}

/** An exported class/interface/type used by a few other files (or packages, for Go). */
function findType(language, texts, used) {
  const syntax = SYNTAX[language];
  for (const [file, text] of texts) {
    if (used.has(file) || syntax.isTest(file) || file === largeTypeScriptFile.path) continue;
    for (const [index, line] of text.split("\n").entries()) {
      const name = syntax.typeDeclaration.exec(line)?.[1];
      if (name === undefined) continue;
      const users = userFiles(language, texts, file, name, syntax.uses(name)).filter(
        (user) => user.otherPackage && !user.test,
      );
      if (users.length >= 2 && users.length <= 10) return { file, index, line, name, users: users.length };
    }
  }
  return undefined;
}

/** A `return <expression>` line of a not-yet-used file, `position` of the way through the sorted files. */
function findReturn(language, texts, used, position) {
  const syntax = SYNTAX[language];
  const returns = (line) => syntax.returnLine.test(line) && whole(line);
  const candidates = [...texts.keys()].filter(
    (file) =>
      !used.has(file) &&
      !syntax.isTest(file) &&
      file !== largeTypeScriptFile.path &&
      texts.get(file).split("\n").some(returns),
  );
  const file = candidates[Math.floor(candidates.length * position)];
  if (file === undefined) return undefined;
  const lines = texts.get(file).split("\n");
  const index = lines.findIndex(returns);
  return { file, index, indent: syntax.returnLine.exec(lines[index])[1] };
}
