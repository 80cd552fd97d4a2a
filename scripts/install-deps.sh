#!/usr/bin/env bash
# Installs the Debian packages LiveGate builds, runs and tests with, if any is missing.
# Usage: scripts/install-deps.sh [run|test|bench]   (test adds what only the test suite needs; bench adds
# to test what only benchmarks need)
set -euo pipefail

purpose="${1:-run}"
packages=(pkg-config libpq-dev libcurl4-openssl-dev libssl-dev libjemalloc-dev postgresql openssl)
if [ "$purpose" = "bench" ]; then
    # golang-go: bench/delivery's Go net/http sender.
    packages+=(golang-go)
    purpose=test
fi
if [ "$purpose" = "test" ]; then
    # nghttp2-server: nghttpd, the HTTP/2 peer of the APNs transport tests; nghttp2-client: h2load, for bench/.
    # chromium, chromium-driver: the dashboard's browser test drives Debian's headless Chromium.
    # patroni, etcd-server: the reference high-availability cluster (scripts/ha/cluster.sh) the failover
    # tests run the gateway on.
    packages+=(docker-compose nghttp2-server nghttp2-client chromium chromium-driver patroni etcd-server)
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

# The OpenAPI document is validated by the test suite with Python's openapi-spec-validator.
if [ "$purpose" = "test" ] && ! python3 -c 'import openapi_spec_validator, yaml' 2>/dev/null; then
    python3 -m pip install --quiet openapi-spec-validator pyyaml >&2
fi
# SDK authentication tests sign their JWTs with PyJWT (with cryptography for ES256/RS256), as a customer's
# server would, so the gateway never checks only tokens of its own making.
if [ "$purpose" = "test" ] && ! python3 -c 'import jwt, cryptography' 2>/dev/null; then
    python3 -m pip install --quiet 'pyjwt[crypto]>=2.4,<3' >&2
fi
# The dashboard's browser test is a Python Selenium 4 script.
if [ "$purpose" = "test" ] && ! python3 -c 'import selenium.webdriver' 2>/dev/null; then
    python3 -m pip install --quiet 'selenium>=4.11,<5' >&2
fi

# PyPI's braze-client: a test reads LiveGate's answers through it. It pins tenacity<6, which does not
# import on Python 3.11 (asyncio.coroutine is gone), so a current tenacity goes in after it.
if [ "$purpose" = "test" ] && ! python3 -c 'import braze.client' 2>/dev/null; then
    python3 -m pip install --quiet braze-client >&2
    python3 -m pip install --quiet 'tenacity>=8.2' >&2
fi
# aioapns, a Python APNs client people use, sends to the simulator in a test (and in bench/delivery's rtt
# run): the simulator must answer what APNs answers such a client.
if [ "$purpose" = "test" ] && ! python3 -c 'import aioapns' 2>/dev/null; then
    python3 -m pip install --quiet 'aioapns>=4,<5' >&2
fi
# schemathesis checks every route against openapi.yaml (scripts/contract-test.sh).
if [ "$purpose" = "test" ] && ! command -v schemathesis >/dev/null 2>&1; then
    python3 -m pip install --quiet 'schemathesis>=4,<5' >&2
fi

if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

echo "installing: ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
    sudo=sudo
else
    sudo=
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# The server package must not start a system cluster of its own: LiveGate's scripts run their own.
printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
$sudo chmod +x /usr/sbin/policy-rc.d
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
$sudo rm -f /usr/sbin/policy-rc.d
