#!/usr/bin/env bash
# Pack every publishable package of this checkout into one directory, exactly as `npm publish` would
# ship it, so a project outside the repository can install runbound before it is on the registry:
#   npm run pack:local -- ../runbound-packs
#   npm install --no-save ../runbound-packs/*.tgz      (in the other project)
# The packages must be built first (`npm ci` builds them).
set -euo pipefail
if [ "$#" -ne 1 ]; then
  echo "usage: npm run pack:local -- <directory for the .tgz files>" >&2
  exit 2
fi
mkdir -p "$1"
destination=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
for manifest in packages/*/package.json; do
  directory=$(dirname "$manifest")
  if [ "$(node -p "require('./${manifest}').private === true")" = "true" ]; then continue; fi
  # What the package's entry point names must be there: dist/ for the TypeScript packages, the binary
  # for an engine platform package (packages/astgrep-engine-<triple>, written by the engine's build).
  main=$(node -p "require('./${manifest}').main ?? ''")
  if [ -n "$main" ] && [ ! -e "${directory}/${main}" ]; then
    echo "pack: ${directory} has no ${main#./}; build first (npm run build; the engine's binary needs cargo, on the platform the package is for)" >&2
    exit 1
  fi
  if [ -z "$main" ] && [ ! -d "${directory}/dist" ]; then
    echo "pack: ${directory} has no dist/; build first (npm run build)" >&2
    exit 1
  fi
  npm pack "./${directory}" --pack-destination "$destination" --silent >/dev/null
done
ls "$destination"/*.tgz
