#!/bin/sh
# blas-alternatives.sh (cmake/blas-alternatives.sh.in) in a scratch root, with the reference BLAS
# (priority 10) and an OpenBLAS (100) registered as on Debian: install joins at 50 without
# changing the selection, --set selects it (and a BLAS tester then runs on it), remove takes it
# away and auto mode returns to OpenBLAS. Nothing outside the scratch root changes.
#   alternatives_test.sh <blas-alternatives.sh> <libcoheriq_blas.so> <tester program>
set -eu
script=$1
library=$2
tester=$3
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
ma=x86_64-linux-gnu
name=libblas.so.3-$ma
mkdir -p "$root/usr/lib/$ma/blas" "$root/usr/lib/$ma/openblas-pthread" "$root/usr/local/lib" \
         "$root/etc/alternatives" "$root/var/lib/dpkg/alternatives"
touch "$root/usr/lib/$ma/blas/libblas.so.3" "$root/usr/lib/$ma/openblas-pthread/libblas.so.3"
ln -s "$(readlink -f "$library")" "$root/usr/local/lib/libcoheriq_blas.so.0"
ua() { update-alternatives --root "$root" "$@"; }
ua --install "/usr/lib/$ma/libblas.so.3" "$name" "/usr/lib/$ma/blas/libblas.so.3" 10 >/dev/null
ua --install "/usr/lib/$ma/libblas.so.3" "$name" "/usr/lib/$ma/openblas-pthread/libblas.so.3" 100 >/dev/null
value() { ua --query "$name" | sed -n 's/^Value: //p'; }
fail() { echo "FAILED: $*"; ua --query "$name"; exit 1; }
ours=/usr/local/lib/coheriq-blas/libblas.so.3

sh "$script" install --root "$root" --libdir /usr/local/lib
ua --query "$name" | grep -A1 "^Alternative: $ours\$" | grep -q "^Priority: 50\$" ||
  fail "install did not register $ours at priority 50"
[ "$(value)" = "/usr/lib/$ma/openblas-pthread/libblas.so.3" ] || fail "install changed the selection"

ua --set "$name" "$ours" >/dev/null
[ "$(value)" = "$ours" ] || fail "--set did not select $ours"
# The folder holds a libblas.so.3 that is libcoheriq_blas: a program loads it from there.
LD_TRACE_LOADED_OBJECTS=1 LD_LIBRARY_PATH="$root/usr/local/lib/coheriq-blas" "$tester" |
  grep -q "libblas.so.3 => $root/usr/local/lib/coheriq-blas/libblas.so.3" ||
  fail "$tester does not load libblas.so.3 from the folder"
out=$(LD_LIBRARY_PATH="$root/usr/local/lib/coheriq-blas" "$tester")
echo "$out" | grep -q "PASS" || fail "$tester over the registered library: $out"

sh "$script" remove --root "$root" --libdir /usr/local/lib
ua --query "$name" | grep -q "^Alternative: $ours\$" && fail "remove left $ours registered"
[ "$(value)" = "/usr/lib/$ma/openblas-pthread/libblas.so.3" ] || fail "remove did not return to OpenBLAS"
[ ! -e "$root$ours" ] || fail "remove left $ours"
echo "alternatives_test: install, select, remove in a scratch root: all checks passed"
