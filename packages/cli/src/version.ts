/** The CLI's version (kept equal to package.json's by the release process; no file is read at import). */
export const CLI_VERSION = "0.1.0";
