#!/usr/bin/env bash
# Plays as the kete binary $1, then dies on the $2-th `go` (default 3).
kete="$1"
limit="${2:-3}"
n=0
# kete's output goes straight to ours; we only filter what it is sent.
exec 3> >(exec "$kete")
while IFS= read -r line; do
  case "$line" in
    go*)
      n=$((n + 1))
      if [ "$n" -ge "$limit" ]; then
        exit 3
      fi
      ;;
  esac
  printf '%s\n' "$line" >&3
  [ "$line" = quit ] && break
done
