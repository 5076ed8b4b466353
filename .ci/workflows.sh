#!/usr/bin/env bash
# The workflow lints (docs/release.md, "Checked here"): every file of
# .github/workflows against the GitHub Actions workflow schema
# (action-validator, from npm) and for security faults (zizmor, from PyPI),
# both pinned with all their dependencies (.ci/lint/package-lock.json,
# .ci/lint/requirements.txt) and installed into a throwaway directory.
# Both run offline: zizmor with --offline (its online audits ask GitHub
# whether a pinned commit belongs to the tag its comment names, which this
# machine cannot reach). Called by .ci/run; runs on its own as well.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s (%s)\n' "$*" "$(date -u +%H:%M:%S)"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

# Node 20 or newer for action-validator, as .ci/js.sh needs; venv for zizmor.
node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$node_major" -lt 20 ] || ! command -v npm >/dev/null 2>&1; then
    step "installing nodejs and npm (Node $node_major found; 20 or newer needed)"
    apt-get update -qq
    apt-get install -y -qq nodejs npm
fi
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
    step "installing python3-venv (for zizmor's virtual environment)"
    apt-get update -qq
    apt-get install -y -qq python3-venv
fi

mapfile -t workflows < <(ls .github/workflows/*.yml .github/workflows/*.yaml 2>/dev/null || true)
if [ "${#workflows[@]}" -eq 0 ]; then
    echo "error: no workflow under .github/workflows: nothing to lint is a fault here" >&2
    exit 1
fi

step "workflows: action-validator and zizmor into $work"
cp .ci/lint/package.json .ci/lint/package-lock.json "$work/"
(cd "$work" && npm ci --silent)
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check -r .ci/lint/requirements.txt

step "workflows: action-validator $(node -p "require('$work/node_modules/@action-validator/cli/package.json').version") (the workflow schema)"
status=0
for workflow in "${workflows[@]}"; do
    # The one exception: action-validator 0.6.0 (the newest) bundles a
    # schema older than the `attestations` permission, which GitHub
    # documents for artifact attestations and release.yml's checksums
    # job needs (actions/attest-build-provenance). The copy validated
    # lacks exactly the lines granting it, so every other key is still
    # held to the schema; zizmor below reads the file as it is.
    copy="$work/$(basename "$workflow")"
    grep -v -E '^ +attestations: write( #.*)?$' "$workflow" > "$copy"
    if "$work/node_modules/.bin/action-validator" "$copy" > "$work/validator.out" 2>&1; then
        echo "ok    $workflow"
    else
        echo "FAIL  $workflow"
        cat "$work/validator.out"
        status=1
    fi
done
[ "$status" -eq 0 ] || { echo "error: action-validator refused a workflow (above)" >&2; exit 1; }

# The pedantic persona: every audit, including the ones the default
# persona leaves out (undocumented permissions, ad-hoc package installs).
step "workflows: $("$work/venv/bin/zizmor" --version) --offline --persona pedantic"
"$work/venv/bin/zizmor" --offline --persona pedantic --no-progress "${workflows[@]}"

# Both must refuse .ci/lint/refused.yml, each for its own finding: a lint
# that passes everything proves nothing.
step "workflows: both linters refuse .ci/lint/refused.yml"
cp .ci/lint/refused.yml "$work/refused.yml"
if "$work/node_modules/.bin/action-validator" "$work/refused.yml" > "$work/refused.out" 2>&1; then
    echo "error: action-validator passed .ci/lint/refused.yml" >&2; exit 1
fi
grep -q "Additional property 'step' is not allowed" "$work/refused.out" \
    || { echo "error: action-validator refused .ci/lint/refused.yml, but not for its 'step' key:" >&2; cat "$work/refused.out" >&2; exit 1; }
if "$work/venv/bin/zizmor" --offline --persona pedantic --no-progress "$work/refused.yml" > "$work/refused.out" 2>&1; then
    echo "error: zizmor passed .ci/lint/refused.yml" >&2; exit 1
fi
for audit in unpinned-uses template-injection; do
    grep -q "\[$audit\]" "$work/refused.out" \
        || { echo "error: zizmor did not report $audit in .ci/lint/refused.yml:" >&2; cat "$work/refused.out" >&2; exit 1; }
done
echo "refused by both, as expected"

step "workflows: done (${#workflows[@]} files)"
