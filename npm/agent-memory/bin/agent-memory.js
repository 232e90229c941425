#!/usr/bin/env node
// Runs the agent-memory binary of this platform, carried by one of the optional dependencies
// (agent-memory-linux-x64, agent-memory-darwin-arm64, agent-memory-win32-x64, ...), with the same arguments, standard
// streams and exit status.
"use strict";

const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const pkg = `agent-memory-${process.platform}-${process.arch}`;

function binary() {
  let manifest;
  try {
    manifest = require.resolve(`${pkg}/package.json`);
  } catch {
    process.stderr.write(
      `agent-memory: no binary for ${process.platform} ${process.arch}: the package ${pkg} is not ` +
        "installed (it is an optional dependency: was the install run with --no-optional or " +
        "--omit=optional?). Prebuilt binaries exist for Linux and macOS on x64 and arm64 and for Windows on x64; " +
        "elsewhere build from source with `cargo install --locked --path cli`.\n",
    );
    process.exit(1);
  }
  const exe = process.platform === "win32" ? "agent-memory.exe" : "agent-memory";
  const file = path.join(path.dirname(manifest), "bin", exe);
  try {
    fs.accessSync(file, fs.constants.X_OK);
  } catch {
    // Some package managers drop the execute bit when they unpack; running it says why if this
    // cannot put it back.
    try {
      fs.chmodSync(file, 0o755);
    } catch {}
  }
  return file;
}

const result = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit" });
if (result.error) {
  process.stderr.write(`agent-memory: cannot run ${pkg}: ${result.error.message}\n`);
  process.exit(1);
}
if (result.signal) {
  process.kill(process.pid, result.signal);
}
process.exit(result.status ?? 1);
