/** This package's version, for the plugin. */
export const PACKAGE_VERSION = "0.1.0";
