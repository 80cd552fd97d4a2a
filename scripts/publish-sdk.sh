#!/usr/bin/env bash
# Publishes LiveGateKit as its own repository: the history of the LiveGateKit/ folder, split out as a
# branch whose root is the package, pushed to REMOTE with the semantic-version tag VERSION (1.4.0).
#
#   scripts/publish-sdk.sh VERSION REMOTE     e.g. scripts/publish-sdk.sh 1.0.0 git@github.com:livegate/LiveGateKit.git
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: scripts/publish-sdk.sh VERSION REMOTE}"
remote="${2:?usage: scripts/publish-sdk.sh VERSION REMOTE}"
if ! [[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
    echo "VERSION must be MAJOR.MINOR.PATCH, such as 1.0.0" >&2
    exit 2
fi
# What is published is what the tests passed on.
scripts/check-sdk-package.sh
commit=$(git subtree split --prefix LiveGateKit)
git push "$remote" "$commit:refs/heads/main"
git push "$remote" "$commit:refs/tags/$version"
echo "LiveGateKit $version is $commit on $remote"
