/** The package version, kept in step with package.json (no file read at import time). */
export const PACKAGE_VERSION = "0.1.0";
