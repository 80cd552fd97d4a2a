#!/usr/bin/env bash
# LiveGateKit as an app gets it: runs the SDK package's own tests, then builds a consumer package
# (Tests/SDKConsumer) outside the repository that depends on LiveGateKit by path and holds Braze's
# documented call sites with only the receiver renamed (LiveGateKit/Tests/LiveGateKitTests/BrazeCallSites.swift). Fails if the consumer resolves any other package.
set -euo pipefail
cd "$(dirname "$0")/.."
sdk="$PWD/LiveGateKit"

swift test --package-path "$sdk"

consumer=$(mktemp -d /tmp/livegatekit-consumer.XXXXXX)
trap 'rm -rf "$consumer"' EXIT
cp -r Tests/SDKConsumer/Sources "$consumer/"
# Braze's call sites, the same file the SDK's own tests compile and run.
cp LiveGateKit/Tests/LiveGateKitTests/BrazeCallSites.swift "$consumer/Sources/BrazeStyleApp/"
sed "s#@LIVEGATEKIT@#$sdk#" Tests/SDKConsumer/Package.swift.in >"$consumer/Package.swift"

swift package --package-path "$consumer" resolve
# The whole graph: the consumer, LiveGateKit, and nothing under either.
graph=$(swift package --package-path "$consumer" show-dependencies --format flatlist)
if [ "$graph" != "livegatekit" ]; then
    echo "FAILED: the consumer resolved more than LiveGateKit:" >&2
    echo "$graph" >&2
    exit 1
fi
if [ -d "$consumer/.build/checkouts" ] && [ -n "$(ls -A "$consumer/.build/checkouts")" ]; then
    echo "FAILED: packages were checked out for the consumer: $(ls "$consumer/.build/checkouts")" >&2
    exit 1
fi
swift build --package-path "$consumer"
"$consumer/.build/debug/BrazeStyleApp"
echo "LiveGateKit: its tests passed; a consumer resolved no other package and built Braze's call sites"
