#!/usr/bin/env bash
# Installs lshdesk as a user would and checks it from a folder outside the clone (issue 15). Usage: bash tests/wheel_check.sh
# 1. builds the sdist, and the wheel from the sdist (so the sdist is complete, and the compiled core is built from
#    it); checks what each holds;
# 2. installs the wheel with its dependencies into a fresh venv (pip's cache makes the second run quick);
# 3. from an empty folder, with empty config, cache and data folders (a first run):
#    the CLI scans the bundled sample, install-desktop writes a valid entry, and tests/wheel_check.py opens the
#    window offscreen and checks that the sample is scanned, with icons, help pages and licences; it prints how long
#    the first window took;
# 4. an editable install (pip install -e) finds the same bundled files through importlib.resources.
set -euo pipefail
cd "$(dirname "$0")/.."
CLONE=$PWD
PY=${PYTHON:-$CLONE/.venv/bin/python}
WORK=$(mktemp -d -t lshdesk-wheel-check-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}" PIP_DISABLE_PIP_VERSION_CHECK=1

step() { printf '\n== wheel check: %s (%s s)\n' "$1" "$SECONDS"; }
step "building the sdist, then the wheel from it"
"$PY" -m build --outdir "$WORK/dist" . >"$WORK/build.log" 2>&1 || { cat "$WORK/build.log"; exit 1; }
sdist=$(ls "$WORK"/dist/lshdesk-*.tar.gz) wheel=$(ls "$WORK"/dist/lshdesk-*.whl)
tar tzf "$sdist" >"$WORK/sdist.txt"
"$PY" -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' "$wheel" >"$WORK/wheel.txt"
for f in LICENSE resources/sample/notes/electric-kettle-review.txt resources/help/results.html tests/fixtures/ tests/wheel_check.py \
         lshdesk/core/kernels/minhash.pyx lshdesk/core/kernels/_mix.pxd; do
  grep -q "^lshdesk-[^/]*/$f" "$WORK/sdist.txt" || { echo "the sdist lacks $f"; exit 1; }
done
for f in lshdesk/resources/sample/notes/electric-kettle-review.txt lshdesk/resources/icons/app-48.png \
         lshdesk/resources/help/results.html 'lshdesk-[^/]*.dist-info/licenses/LICENSE' \
         'lshdesk/core/kernels/minhash\.[^/]*\.so$'; do
  grep -q "^$f" "$WORK/wheel.txt" || { echo "the wheel lacks $f"; exit 1; }
done
if grep -q -e screenshots -e '^tests/' "$WORK/wheel.txt"; then echo "the wheel carries screenshots or tests"; exit 1; fi
echo "sdist $(wc -l <"$WORK/sdist.txt") files, wheel $(wc -l <"$WORK/wheel.txt") files: $(basename "$wheel")"

step "a fresh venv with the wheel and its dependencies"
"$PY" -m venv --without-pip "$WORK/venv" 2>/dev/null || "$PY" -m venv "$WORK/venv"
[ -x "$WORK/venv/bin/pip" ] || "$PY" -m pip --python "$WORK/venv/bin/python" --version >/dev/null
"$PY" -m pip --python "$WORK/venv/bin/python" install -q "$wheel"
[ -x "$WORK/venv/bin/lshdesk-gui" ] || { echo "no lshdesk-gui script"; exit 1; }

step "the installed lshdesk, from a folder outside the clone, on a first run"
mkdir -p "$WORK/elsewhere" "$WORK/home"
cd "$WORK/elsewhere"
export XDG_CONFIG_HOME=$WORK/home/config XDG_CACHE_HOME=$WORK/home/cache XDG_DATA_HOME=$WORK/home/data \
       XDG_STATE_HOME=$WORK/home/state PYTHONPATH=
LSHDESK=$WORK/venv/bin/lshdesk
"$LSHDESK" --version --verbose | tee "$WORK/version.txt"
grep -q "bundled files: $WORK/venv/" "$WORK/version.txt" || { echo "the bundled files are not the installed ones"; exit 1; }
grep -q "^compiled core: $WORK/venv/.*/lshdesk/core/kernels/{.*minhash.*}.* (compiled at install)$" "$WORK/version.txt" ||
  { echo "the installed wheel has no compiled core"; exit 1; }
cp "$CLONE/tests/wheel_check.py" "$WORK/check_window.py"
T0=$(date +%s.%N) "$WORK/venv/bin/python" "$WORK/check_window.py"
sample=$("$WORK/venv/bin/python" -c 'from lshdesk.system.bundled import sample_dir; print(sample_dir())')
pairs=$("$LSHDESK" scan "$sample" -t 0.3 -q --format json | "$WORK/venv/bin/python" -c 'import json,sys; print(len(json.load(sys.stdin)["pairs"]))')
[ "$pairs" = 9 ] || { echo "the CLI found $pairs pairs in the sample, not 9"; exit 1; }
echo "CLI: 9 pairs in the bundled sample"
"$LSHDESK" install-desktop >/dev/null
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$XDG_DATA_HOME/applications/lshdesk.desktop"
fi
grep -q "^Exec=$WORK/venv/bin/lshdesk-gui %F$" "$XDG_DATA_HOME/applications/lshdesk.desktop"
"$LSHDESK" install-desktop --uninstall >/dev/null
[ -z "$(find "$XDG_DATA_HOME" -type f)" ] || { echo "install-desktop --uninstall left files"; exit 1; }
[ ! -e "$XDG_DATA_HOME/applications" ] && [ ! -e "$XDG_DATA_HOME/icons" ] ||
  { echo "install-desktop --uninstall left the folders it made"; exit 1; }
step "an editable install finds the same files, through importlib.resources, in the clone"
cd "$WORK"
"$PY" -m venv --without-pip "$WORK/editable"
"$PY" -m pip --python "$WORK/editable/bin/python" install -q --no-deps -e "$CLONE"
found=$("$WORK/editable/bin/python" -c 'from importlib.resources import files; print(files("lshdesk.resources"))')
[ "$found" = "$CLONE/resources" ] || { echo "the editable install finds the resources at $found"; exit 1; }
echo "editable: lshdesk.resources is $found"
step "passed"
