#!/usr/bin/env bash
# usage: check_static_copy_symbols.sh NM LIBRARY
# A shared library that links coheriq statically exports none of coheriq's symbols: no
# STB_GNU_UNIQUE object (nm type 'u': the dynamic linker binds those process-wide, across
# RTLD_LOCAL) and no function or data of coheriq at all (docs/decisions.md, "Static copies").
set -euo pipefail
nm=$1
lib=$2
unique=$("$nm" -DC --defined-only "$lib" | awk '$2 == "u"')
echo "STB_GNU_UNIQUE symbols of $(basename "$lib"): $(printf '%s' "$unique" | grep -c . || true)"
[ -z "$unique" ] || echo "$unique" | sed 's/^/  /'
# coheriq's own functions and data, and its classes' vtables and typeinfo (the library's own
# instantiations of std templates over coheriq types are its business, not the copy's).
exported=$("$nm" -DC --defined-only "$lib" |
  grep -E '^[0-9a-f]+ [A-Za-z] ((guard variable|typeinfo|typeinfo name|vtable) for )?coheriq::' ||
  true)
if [ -n "$(echo "$unique" | grep 'coheriq' || true)" ] || [ -n "$exported" ]; then
  echo "FAIL: the library exports coheriq symbols:" >&2
  { echo "$unique" | grep 'coheriq' || true; echo "$exported"; } | sed '/^$/d; s/^/  /' >&2
  exit 1
fi
echo "ok: no coheriq symbol is exported"
