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
  if [ ! -d "${directory}/dist" ]; then
    echo "pack: ${directory} has no dist/; build first (npm run build)" >&2
    exit 1
  fi
  npm pack "./${directory}" --pack-destination "$destination" --silent >/dev/null
done
ls "$destination"/*.tgz
