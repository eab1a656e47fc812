// A plugin whose module throws while it is imported (a bug in its top-level code).
throw new Error("boom at import");
