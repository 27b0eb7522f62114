#!/usr/bin/env bash
# Installs every Debian package clothsim needs, and only those that are missing.
# Idempotent: a second run with everything present calls no apt-get at all.
# Usage: scripts/install-deps.sh --app      (what building and running the app needs: scripts/run.sh)
#        scripts/install-deps.sh            (also the test and benchmark dependencies)
#        scripts/install-deps.sh --clang    (also clang with its libFuzzer and OpenMP runtimes: the
#                                            sanitizer build of scripts/test.sh and scripts/fuzz.sh)
set -euo pipefail

packages=(
  cmake g++ pkg-config make
  libglfw3-dev python3-glad libimgui-dev libglm-dev libeigen3-dev libstb-dev
  nlohmann-json3-dev libtinyobjloader-dev libcli11-dev
  ffmpeg xvfb xauth libgl1-mesa-dri libegl-dev libegl-mesa0
)
if [ "${1:-}" != "--app" ]; then
  packages+=(
    libgtest-dev libbenchmark-dev
    libbullet-dev  # the benchmark's peer (bench/bullet_peer.cpp), built only where found
    xdotool imagemagick mesa-utils
  )
fi
if [ "${1:-}" = "--clang" ]; then
  # libclang-rt-14-dev holds libclang_rt.fuzzer-x86_64.a, which clang-14 only recommends;
  # libomp-14-dev lets the clang-built engine run its threads (engine/CMakeLists.txt).
  packages+=(clang libclang-rt-14-dev libomp-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
