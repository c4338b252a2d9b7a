#!/usr/bin/env bash
# Runs a Magma test program under the Khronos validation layer: it fails when
# the program fails or when the layer reports anything (it writes its messages
# to stdout/stderr, which the program's own checks cannot see).
#   validated.sh PROGRAM [ARGS...]
set -uo pipefail
if [[ ! -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ]]; then
    echo "FAIL: the validation layer is not installed (vulkan-validationlayers)"; exit 1
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$@" >"$log" 2>&1
rc=$?
cat "$log"
n=$(grep -c -E "Validation (Error|Warning)" "$log" || true)
if [[ "$n" != 0 ]]; then echo "FAIL: $n validation messages"; exit 1; fi
exit $rc
