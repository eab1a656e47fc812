#!/usr/bin/env node
// A committed entry that exists before the build, so `npm ci` can link `runbound` into node_modules/.bin
// on a fresh clone (npm links a workspace's bin at install time, before the `prepare` build runs).
import "../dist/bin.js";
